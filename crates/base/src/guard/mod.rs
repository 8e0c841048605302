//! What stops a run before it harms its host: the heap count and limit (`memory`), the floor of
//! the native stack (`stack`) and the signal that interrupted a run (`interrupt`). The core only
//! reads them; the hosts (the command line, the REPL, the kernel, the playground) set them up.
//! Nothing here calls the operating system.

pub mod interrupt;
pub mod memory;
pub mod stack;
