//! Reading other processes from Linux's /proc: who is whose parent, how much
//! CPU and address space they use, which of their memory is private, and the
//! tag in their environment. Every read tolerates a process vanishing in
//! between (it is simply skipped).

use std::collections::HashMap;

/// One process as /proc/<pid>/stat shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: i32,
    pub ppid: i32,
    /// `R`, `S`, `T`, `Z`, …
    pub state: u8,
    /// utime + stime + cutime + cstime, in clock ticks: the process's own
    /// CPU time and that of the children it has waited for.
    pub cpu_ticks: u64,
    /// Its threads (each a task to the kernel, as `RLIMIT_NPROC` counts).
    pub threads: u64,
}

impl ProcInfo {
    /// Dead but not yet reaped (or being reaped).
    pub fn is_zombie(&self) -> bool {
        self.state == b'Z' || self.state == b'X'
    }
}

/// Parse the text of /proc/<pid>/stat. The command name (field 2) may hold
/// spaces and parentheses, so fields are counted after the last `)`.
pub fn parse_stat(pid: i32, text: &str) -> Option<ProcInfo> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state); field n is fields[n - 3].
    let number = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    let cpu = number(14)? + number(15)? + number(16)? + number(17)?;
    Some(ProcInfo {
        pid,
        ppid: fields.get(1)?.parse().ok()?,
        state: *fields.first()?.as_bytes().first()?,
        cpu_ticks: cpu,
        threads: number(20).unwrap_or(1).max(1),
    })
}

/// Every process visible in /proc right now.
pub fn snapshot() -> Vec<ProcInfo> {
    let mut all = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return all;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if let Ok(text) = read(&format!("/proc/{pid}/stat"))
            && let Some(info) = parse_stat(pid, &text)
        {
            all.push(info);
        }
    }
    all
}

/// Children of each pid in a snapshot.
pub fn children_of(snapshot: &[ProcInfo]) -> HashMap<i32, Vec<i32>> {
    let mut map: HashMap<i32, Vec<i32>> = HashMap::new();
    for p in snapshot {
        map.entry(p.ppid).or_default().push(p.pid);
    }
    map
}

/// The value of `name` in the environment `pid` was started with (what
/// /proc/<pid>/environ shows), if readable.
pub fn env_var(pid: i32, name: &str) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    env_value(&env, name)
}

/// `name`'s value in a NUL-separated environment block.
pub fn env_value(env: &[u8], name: &str) -> Option<String> {
    env.split(|&b| b == 0).find_map(|kv| {
        let value = kv.strip_prefix(name.as_bytes())?.strip_prefix(b"=")?;
        Some(String::from_utf8_lossy(value).into_owned())
    })
}

/// Peak virtual memory size (VmPeak) of `pid` in bytes.
pub fn vm_peak(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmPeak:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Clock ticks per second (the unit of the CPU times in /proc/<pid>/stat).
pub fn ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as u64 } else { 100 }
}

/// Files under /proc kept open between looks, each read again from its
/// start (`pread` at offset 0: a /proc file is regenerated on each read from
/// offset 0). A look at a bot reads a handful of small files a few hundred
/// times per game; opening, sizing and closing each one cost more than
/// generating it. Files not read in a look are closed after it, and at most
/// [`OpenFiles::MAX`] are kept (a bot with many threads is read the plain
/// way beyond that), so a probe never holds many descriptors.
#[derive(Debug, Default)]
pub struct OpenFiles {
    kept: HashMap<String, std::fs::File>,
    /// Those read in the current look.
    this_look: HashMap<String, std::fs::File>,
    /// Addresses (with their process) found in private memory: a JVM's
    /// launcher waits on one futex its whole life, and its `maps` is long.
    private_memory: std::collections::HashSet<(i32, u64)>,
    /// Per process: whether its signals were found quiet, and the mark of
    /// its tasks' counters then (the idle proof's `signals_quiet`).
    signals: HashMap<i32, (u64, bool)>,
}

impl OpenFiles {
    pub const MAX: usize = 32;

    /// Start a look: the files the last look read stay at hand.
    pub fn begin_look(&mut self) {
        let read = std::mem::take(&mut self.this_look);
        self.kept = read;
    }

    /// The whole text of `path`, read again now. An error is what opening
    /// or reading it gave (`NotFound`: the task or process is gone).
    pub fn read(&mut self, path: &str) -> std::io::Result<String> {
        // A kept file that fails belongs to a task that ended: it is opened
        // again below, to learn why.
        if let Some(file) = self.kept.remove(path)
            && let Ok(text) = read_from_start(&file)
        {
            self.keep(path, file);
            return Ok(text);
        }
        let file = std::fs::File::open(path)?;
        let text = read_from_start(&file)?;
        self.keep(path, file);
        Ok(text)
    }

    /// Whether `addr` lies in a private mapping of process `pid` (its
    /// `maps`, read once per address).
    #[cfg(target_os = "linux")]
    pub fn in_private_memory(&mut self, pid: i32, addr: u64) -> bool {
        if self.private_memory.contains(&(pid, addr)) {
            return true;
        }
        let private =
            read(&format!("/proc/{pid}/maps")).is_ok_and(|maps| private_mapping(&maps, addr));
        if private && self.private_memory.len() < 64 {
            self.private_memory.insert((pid, addr));
        }
        private
    }

    /// What [`OpenFiles::remember_signals`] kept for `pid` at `mark`.
    pub fn signals_known(&self, pid: i32, mark: u64) -> Option<bool> {
        self.signals
            .get(&pid)
            .and_then(|&(m, quiet)| (m == mark).then_some(quiet))
    }

    pub fn remember_signals(&mut self, pid: i32, mark: u64, quiet: bool) {
        if self.signals.len() < 64 || self.signals.contains_key(&pid) {
            self.signals.insert(pid, (mark, quiet));
        }
    }

    fn keep(&mut self, path: &str, file: std::fs::File) {
        if self.this_look.len() < Self::MAX {
            self.this_look.insert(path.to_string(), file);
        }
    }
}

/// Whether address `addr` lies in a private mapping of a `/proc/<pid>/maps`
/// text (`start-end perms …`, perms ending in `p`, not `s`).
pub fn private_mapping(maps: &str, addr: u64) -> bool {
    maps.lines().any(|l| {
        let mut words = l.split_whitespace();
        let (Some(range), Some(perms)) = (words.next(), words.next()) else {
            return false;
        };
        let Some((start, end)) = range.split_once('-') else {
            return false;
        };
        let (Ok(start), Ok(end)) = (u64::from_str_radix(start, 16), u64::from_str_radix(end, 16))
        else {
            return false;
        };
        start <= addr && addr < end && perms.ends_with('p')
    })
}

/// The whole text of a /proc file. Unlike `fs::read_to_string`, which
/// sizes the file first (a /proc file says 0) and then grows its buffer
/// from 32 bytes, one read of 4 KiB takes a `stat` or `children` file whole:
/// a scan of every process does this hundreds of times.
pub fn read(path: &str) -> std::io::Result<String> {
    read_from_start(&std::fs::File::open(path)?)
}

/// Read a /proc file from offset 0 to its end.
fn read_from_start(file: &std::fs::File) -> std::io::Result<String> {
    use std::os::unix::fs::FileExt;
    let mut bytes = vec![0u8; 4096];
    let mut len = 0;
    loop {
        let n = file.read_at(&mut bytes[len..], len as u64)?;
        len += n;
        if n == 0 || len < bytes.len() {
            break; // a /proc file gives all it has in one read that fits
        }
        bytes.resize(bytes.len() * 2, 0);
    }
    bytes.truncate(len);
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_command_name() {
        let text = "42 (a) b (c)) S 7 42 42 0 -1 4194560 1 0 0 0 150 25 3 2 20 0 1 0 100 \
                    1000 10 18446744073709551615";
        let info = parse_stat(42, text).unwrap();
        assert_eq!(info.ppid, 7);
        assert_eq!(info.state, b'S');
        assert_eq!(info.cpu_ticks, 150 + 25 + 3 + 2);
        assert!(!info.is_zombie());
        assert_eq!(parse_stat(1, "garbage"), None);
    }

    #[test]
    fn a_futex_in_a_private_mapping_is_told_from_one_in_shared_memory() {
        let maps = "7fe1f4db3000-7fe1f4db4000 rw-p 00000000 00:00 0 \n\
                    7fe22a000000-7fe22a100000 rw-s 00000000 00:01 1234  /dev/shm/x\n";
        assert!(private_mapping(maps, 0x7fe1f4db3580));
        assert!(!private_mapping(maps, 0x7fe22a000010), "shared memory");
        assert!(!private_mapping(maps, 0x10), "not mapped");
    }

    #[test]
    fn environment_values_are_found_by_exact_name() {
        let env = b"PROTOCHECK_BOTX=no\0PROTOCHECK_BOT=run.3\0PATH=/bin\0";
        assert_eq!(env_value(env, "PROTOCHECK_BOT").as_deref(), Some("run.3"));
        assert_eq!(env_value(env, "HOME"), None);
    }

    #[test]
    fn a_kept_file_is_read_afresh_and_a_gone_task_is_not_found() {
        let mut files = OpenFiles::default();
        // This test's own thread (`/proc/self` is the main thread's).
        let path = &format!("/proc/self/task/{}/schedstat", unsafe { libc::gettid() });
        files.begin_look();
        let first = files.read(path).unwrap();
        // Use some CPU: the kept file must show the new count, not the old.
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_add(i * i);
        }
        std::hint::black_box(x);
        std::thread::yield_now();
        files.begin_look();
        let second = files.read(path).unwrap();
        assert_eq!(
            files.kept.len() + files.this_look.len(),
            1,
            "one file, kept"
        );
        let ran = |t: &str| t.split_whitespace().next().unwrap().parse::<u64>().unwrap();
        assert!(ran(&second) > ran(&first), "{first} then {second}");

        // A thread's file, kept open while the thread lived, reads as gone
        // once it ended, and is no longer kept.
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (end_tx, end_rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            tid_tx.send(unsafe { libc::gettid() }).unwrap();
            let _ = end_rx.recv();
        });
        let tid = tid_rx.recv().unwrap();
        let path_of_thread = format!("/proc/self/task/{tid}/stat");
        assert!(files.read(&path_of_thread).is_ok());
        files.begin_look();
        assert_eq!(files.kept.len(), 2, "schedstat and the thread's stat kept");
        end_tx.send(()).unwrap();
        thread.join().unwrap();
        assert!(files.read(&path_of_thread).is_err());
        files.begin_look();
        assert!(files.kept.is_empty(), "{:?}", files.kept.keys());
    }

    #[test]
    fn own_process_is_in_the_snapshot() {
        let me = std::process::id() as i32;
        let snap = snapshot();
        let mine = snap.iter().find(|p| p.pid == me).expect("self in /proc");
        assert_eq!(mine.ppid, unsafe { libc::getppid() });
        assert!(vm_peak(me).unwrap() > 0);
    }
}
