//! The clocks a time budget can count: wall-clock time, or the calling thread's CPU time
//! (`alphabeta:ms=N,cpu=1`), which other processes on the machine do not consume.

use std::time::{Duration, Instant};

/// The CPU time the calling thread has used so far, or `None` where the system does not
/// give it (non-Unix systems).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID needs no
        // other argument.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        (rc == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// When a time budget runs out.
#[derive(Clone, Copy, Debug)]
pub enum Deadline {
    /// At this wall-clock instant.
    Wall(Instant),
    /// When the searching thread's CPU time reaches this.
    Cpu(Duration),
}

impl Deadline {
    /// A deadline `ms` milliseconds from now, on the thread's CPU clock when `cpu` (and
    /// the system gives one), else on the wall clock.
    pub fn after(ms: u64, cpu: bool) -> Deadline {
        let budget = Duration::from_millis(ms);
        match thread_cpu_time().filter(|_| cpu) {
            Some(used) => Deadline::Cpu(used + budget),
            None => Deadline::Wall(Instant::now() + budget),
        }
    }

    /// Whether the deadline has passed.
    pub fn passed(&self) -> bool {
        match *self {
            Deadline::Wall(at) => Instant::now() >= at,
            Deadline::Cpu(at) => thread_cpu_time().is_none_or(|used| used >= at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_thread_cpu_clock_counts_work_and_not_sleep() {
        let start = thread_cpu_time().expect("a CPU clock on unix");
        std::thread::sleep(Duration::from_millis(60));
        let slept = thread_cpu_time().unwrap() - start;
        assert!(slept < Duration::from_millis(30), "sleeping used {slept:?} of CPU");
        let deadline = Deadline::after(20, true);
        assert!(matches!(deadline, Deadline::Cpu(_)));
        assert!(!deadline.passed());
        let mut x = 0u64;
        while !deadline.passed() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert!(thread_cpu_time().unwrap() - start >= Duration::from_millis(20), "{x}");
        assert!(matches!(Deadline::after(5, false), Deadline::Wall(_)));
    }
}
