//! The memory of the machine, for the default heap limit: a run without `--max-memory` may take
//! half of it (docs/language.md, "Running untrusted scripts"), so that a search over an endless
//! space stops with `max_memory` (its statistics kept) instead of swapping until the system
//! kills it (issue 41).

/// The share of the machine's memory the heap may take by default: 1 / `DEFAULT_SHARE`.
pub const DEFAULT_SHARE: usize = 2;

/// The heap limit when `--max-memory` is not given: half the machine's memory, or of the
/// memory limit of the process's control group (a container) when that is smaller.
pub fn default_heap_limit() -> Option<usize> {
    machine_memory().map(|bytes| bytes / DEFAULT_SHARE)
}

/// The memory the process can have: the physical memory, or less in a control group.
fn machine_memory() -> Option<usize> {
    let group = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok().and_then(|text| cgroup_limit(&text)));
    match (physical_memory(), group) {
        (Some(p), Some(g)) => Some(p.min(g)),
        (p, g) => p.or(g),
    }
}

/// The physical memory, from the number of pages and their size.
fn physical_memory() -> Option<usize> {
    // SAFETY: sysconf only reads system values.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    let bytes = usize::try_from(pages).ok()?.checked_mul(usize::try_from(size).ok()?)?;
    (bytes > 0).then_some(bytes)
}

/// A control group's memory limit, as `memory.max` (cgroup v2: bytes or "max") or
/// `memory.limit_in_bytes` (v1: bytes, a huge number when unlimited) writes it.
fn cgroup_limit(text: &str) -> Option<usize> {
    let bytes: u64 = text.trim().parse().ok()?;
    // v1 writes "unlimited" as the largest page-aligned i64
    (bytes > 0 && bytes < (1 << 62)).then(|| usize::try_from(bytes).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_group_limit_is_read_and_no_limit_is_none() {
        assert_eq!(cgroup_limit("1073741824\n"), Some(1 << 30));
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(cgroup_limit("0\n"), None);
    }

    #[test]
    fn the_default_is_half_the_memory() {
        let physical = physical_memory().expect("sysconf gives the physical memory");
        let default = default_heap_limit().expect("a default limit");
        assert!(default <= physical / 2 && default > 0, "{default} of {physical}");
    }
}
