"""Starting ds kernels for the tests, past jupyter_client's port race."""

from jupyter_client.manager import start_new_kernel


def port_race(error):
    """Whether a kernel failed to start because a port the client chose was taken.

    jupyter_client picks the kernel's ports by binding port 0 and letting them go, then connects
    at once, retrying until the kernel listens. A retry can take a free port as its own local end
    (TCP's self-connection) and hold it. The kernel waits a while for such a port, then exits
    with "Address already in use" before its first reply: the client's race, not the kernel's
    failure, so the test starts the kernel once more."""
    return isinstance(error, RuntimeError) and "before replying to kernel_info" in str(error)


def start(**options):
    """A kernel manager and client for a ds kernel, as `start_new_kernel` gives them."""
    try:
        return start_new_kernel(kernel_name="ds", **options)
    except RuntimeError as e:
        if not port_race(e):
            raise
        print(f"note: the kernel could not start ({e}); started again")
        return start_new_kernel(kernel_name="ds", **options)
