use super::*;

fn sandboxed() -> Layers {
    Layers {
        landlock: Some(7),
        files: true,
        tcp: true,
        signals: true,
        scheduling: true,
        none_because: None,
    }
}

fn own() -> OwnFolders {
    OwnFolders {
        workdir: PathBuf::from("/class/alice"),
        readable: vec![
            PathBuf::from("/class/alice/bin"),
            PathBuf::from("/opt/course/bots"),
        ],
    }
}

fn diag(tail: &str) -> Option<Refusal> {
    diagnose(tail, &sandboxed(), &own())
}

fn file(access: Access, path: &str) -> Option<Refusal> {
    Some(Refusal {
        access,
        path: Some(path.to_string()),
    })
}

#[test]
fn python_permission_error_names_the_path() {
    let tail = "Traceback (most recent call last):\n  File \"/class/alice/bot.py\", line 4, in <module>\n    data = open('/class/bob/book.txt').read()\nPermissionError: [Errno 13] Permission denied: '/class/bob/book.txt'\n";
    assert_eq!(diag(tail), file(Access::Read, "/class/bob/book.txt"));
    let tail = "Traceback (most recent call last):\n  File \"bot.py\", line 4, in <module>\n    fd = os.open('/srv/x', os.O_WRONLY | os.O_CREAT)\nPermissionError: [Errno 13] Permission denied: '/srv/x'\n";
    assert_eq!(diag(tail), file(Access::Write, "/srv/x"));
    // A write mode in the failing call tells the direction.
    let tail = "Traceback (most recent call last):\n  File \"bot.py\", line 4, in <module>\n    with open('/tmp/log.txt', 'w') as f:\nPermissionError: [Errno 13] Permission denied: '/tmp/log.txt'\n";
    assert_eq!(diag(tail), file(Access::Write, "/tmp/log.txt"));
    // The interpreter itself refused the script.
    let tail = "python3: can't open file '/class/bob/bot.py': [Errno 13] Permission denied\n";
    assert_eq!(diag(tail), file(Access::File, "/class/bob/bot.py"));
}

#[test]
fn python_quotes_a_path_with_an_apostrophe_in_double_quotes() {
    let tail = "PermissionError: [Errno 13] Permission denied: \"/class/bob's work/book.txt\"\n";
    assert_eq!(diag(tail), file(Access::File, "/class/bob's work/book.txt"));
}

#[test]
fn java_nio_and_file_input_stream() {
    let tail = "Exception in thread \"main\" java.nio.file.AccessDeniedException: /class/bob/My Book.txt\n\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:90)\n\tat java.base/java.nio.file.Files.readAllBytes(Files.java:3288)\n\tat Bot.main(Bot.java:12)\n";
    assert_eq!(diag(tail), file(Access::Read, "/class/bob/My Book.txt"));
    let tail = "Exception in thread \"main\" java.io.FileNotFoundException: /class/bob/book.txt (Permission denied)\n\tat java.base/java.io.FileInputStream.open0(Native Method)\n\tat java.base/java.io.FileInputStream.open(FileInputStream.java:213)\n\tat Bot.main(Bot.java:9)\n";
    assert_eq!(diag(tail), file(Access::Read, "/class/bob/book.txt"));
    let tail = "Exception in thread \"main\" java.io.FileNotFoundException: /var/log/bot.log (Permission denied)\n\tat java.base/java.io.FileOutputStream.open0(Native Method)\n\tat Bot.main(Bot.java:9)\n";
    assert_eq!(diag(tail), file(Access::Write, "/var/log/bot.log"));
    // Wrapped: the cause is the refusal.
    let tail = "Exception in thread \"main\" java.lang.RuntimeException: boom\n\tat Bot.main(Bot.java:5)\nCaused by: java.nio.file.AccessDeniedException: /class/bob/x\n\tat java.base/java.nio.file.Files.newBufferedReader(Files.java:2922)\n\t... 1 more\n";
    assert_eq!(diag(tail), file(Access::Read, "/class/bob/x"));
}

#[test]
fn racket_open_input_file_in_both_shapes() {
    let tail = "open-input-file: cannot open input file\n  path: /class/bob/book data.rktd\n  system error: Permission denied; errno=13\n  context...:\n   body of \"/class/alice/bot.rkt\"\n";
    assert_eq!(diag(tail), file(Access::Read, "/class/bob/book data.rktd"));
    let tail =
        "open-output-file: cannot open output file: /srv/out.txt (Permission denied; errno=13)\n";
    assert_eq!(diag(tail), file(Access::Write, "/srv/out.txt"));
}

#[test]
fn c_shell_rust_node_and_ghc_shapes() {
    assert_eq!(
        diag("cat: /class/bob/book.txt: Permission denied\n"),
        file(Access::Read, "/class/bob/book.txt")
    );
    assert_eq!(
        diag("cat: '/class/bob/a b.txt': Permission denied\n"),
        file(Access::Read, "/class/bob/a b.txt")
    );
    assert_eq!(
        diag("./bot.sh: line 3: /srv/x: Permission denied\n"),
        file(Access::File, "/srv/x")
    );
    assert_eq!(
        diag("sh: 1: cannot create /srv/log: Permission denied\n"),
        file(Access::Write, "/srv/log")
    );
    assert_eq!(
        diag("cannot read ../bob/book.txt: Permission denied (os error 13)\n"),
        file(Access::Read, "/class/bob/book.txt")
    );
    assert_eq!(
        diag(
            "Error: EACCES: permission denied, open '/class/bob/book.json'\n    at Object.openSync (node:fs:573:18)\n    at Object.readFileSync (node:fs:452:35)\n"
        ),
        file(Access::Read, "/class/bob/book.json")
    );
    assert_eq!(
        diag("bot: /class/bob/x: openFile: permission denied (Permission denied)\n"),
        file(Access::File, "/class/bob/x")
    );
    assert_eq!(
        diag("/class/alice/bot: 3: exec: /class/bob/engine: Permission denied\n"),
        file(Access::Read, "/class/bob/engine")
    );
    assert_eq!(
        diag("rm: cannot remove '/srv/x': Operation not permitted\n"),
        file(Access::Write, "/srv/x")
    );
}

#[test]
fn a_refusal_without_a_path_is_told_without_one() {
    let tail = "thread 'main' panicked at src/main.rs:5:40:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 13, kind: PermissionDenied, message: \"Permission denied\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
    let r = diag(tail).unwrap();
    assert_eq!(
        r,
        Refusal {
            access: Access::File,
            path: None
        }
    );
    assert!(r.remedy().contains("--allow-read PATH"), "{}", r.remedy());
}

#[test]
fn refused_connects_signals_and_scheduling() {
    let connect = Some(Refusal {
        access: Access::Connect,
        path: None,
    });
    assert_eq!(diag("connect: Permission denied\n"), connect);
    assert_eq!(
        diag(
            "Traceback (most recent call last):\n  File \"bot.py\", line 9, in <module>\n    s.connect(('127.0.0.1', 4000))\nPermissionError: [Errno 13] Permission denied\n"
        ),
        connect
    );
    assert_eq!(
        diag(
            "Exception in thread \"main\" java.net.SocketException: Permission denied\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)\n"
        ),
        connect
    );
    assert_eq!(
        diag(
            "tcp-connect: connection failed\n  hostname: 127.0.0.1\n  port number: 4001\n  system error: Permission denied; errno=13\n"
        ),
        connect
    );
    assert_eq!(
        diag("kill: (4242) - Operation not permitted\n"),
        Some(Refusal {
            access: Access::Signal,
            path: None
        })
    );
    assert_eq!(
        diag("sched_setscheduler: Operation not permitted\n"),
        Some(Refusal {
            access: Access::Scheduling,
            path: None
        })
    );
}

#[test]
fn a_refused_connection_is_not_a_refusal_of_the_sandbox() {
    assert_eq!(diag("connect: Connection refused\n"), None);
    assert_eq!(
        diag("ConnectionRefusedError: [Errno 111] Connection refused\n"),
        None
    );
    assert_eq!(diag("Error: connect ECONNREFUSED 127.0.0.1:4000\n"), None);
}

#[test]
fn no_diagnosis_from_unrelated_words() {
    for tail in [
        "debug: checking permission to swap\n",
        "no permission: the hole is empty\n",
        "KEEPERMODE=1\n",
        "EPERMANENT failure of my own\n",
        "thinking... depth 7\n",
        "",
        // EPERM with neither path nor call: too vague to blame the sandbox.
        "Operation not permitted\n",
    ] {
        assert_eq!(diag(tail), None, "{tail:?}");
    }
}

#[test]
fn only_a_refusal_at_the_end_of_the_tail_ended_the_bot() {
    // Refused at start, then played on and wrote more: not what ended it.
    let tail = "cat: /class/bob/x: Permission denied\nmove 1\nmove 2\nmove 3\ngave up\n";
    assert_eq!(diag(tail), None);
    // A last word after the refusal is fine.
    let tail = "cat: /class/bob/x: Permission denied\ngoodbye\n";
    assert!(diag(tail).is_some());
}

#[test]
fn a_denial_the_sandbox_allows_is_the_files_own_permissions() {
    // Anything in the working folder: read or write.
    assert_eq!(
        diag("cat: /class/alice/secret.txt: Permission denied\n"),
        None
    );
    assert_eq!(diag("cat: ./data/x.txt: Permission denied\n"), None);
    assert_eq!(
        diag("sh: 1: cannot create data/log: Permission denied\n"),
        None
    );
    // `..` that leaves the folder is outside it.
    assert_eq!(
        diag("cat: ../bob/x.txt: Permission denied\n"),
        file(Access::Read, "/class/bob/x.txt")
    );
    // A read in a readable folder is allowed: only a write was refused.
    assert_eq!(
        diag(
            "java.io.FileNotFoundException: /opt/course/bots/book.txt (Permission denied)\n\tat java.base/java.io.FileInputStream.open0(Native Method)\n"
        ),
        None
    );
    assert_eq!(
        diag("cat: /opt/course/bots/book.txt: Permission denied\n"),
        None
    );
    assert_eq!(
        diag("bot: /opt/course/bots/book.txt: Permission denied\n"),
        None
    );
    assert_eq!(
        diag("sh: 1: cannot create /opt/course/bots/log: Permission denied\n"),
        file(Access::Write, "/opt/course/bots/log")
    );
}

#[test]
fn a_path_protocheck_itself_may_not_read_is_not_the_sandboxs_doing() {
    let missing = Refusal {
        access: Access::Read,
        path: Some("/nonexistent/protocheck/x".to_string()),
    };
    // Nothing there: ENOENT, not a refusal; nothing tells against the
    // sandbox.
    assert!(unconfined_may(&missing));
    let here = Refusal {
        access: Access::Read,
        path: Some(env!("CARGO_MANIFEST_DIR").to_string()),
    };
    assert!(unconfined_may(&here));
    assert!(unconfined_may(&Refusal {
        access: Access::Connect,
        path: None
    }));
}

#[test]
fn no_diagnosis_where_the_layer_was_off() {
    let off = Layers::none("--sandbox off");
    let tail = "PermissionError: [Errno 13] Permission denied: '/class/bob/x'\n";
    assert_eq!(diagnose(tail, &off, &own()), None);
    assert_eq!(diagnose("connect: Permission denied\n", &off, &own()), None);
    // Files confined but not TCP (Landlock before ABI 4).
    let files_only = Layers {
        landlock: Some(3),
        files: true,
        ..Layers::default()
    };
    assert!(diagnose(tail, &files_only, &own()).is_some());
    assert_eq!(
        diagnose("connect: Permission denied\n", &files_only, &own()),
        None
    );
}

#[test]
fn the_wording_names_the_option_and_never_the_bot_as_wrong() {
    let r = Refusal {
        access: Access::Read,
        path: Some("/class/bob/My Book.txt".to_string()),
    };
    assert_eq!(
        r.reword("the bot exited (exit status 1) before the game ended"),
        "the sandbox refused this bot access to /class/bob/My Book.txt (reading outside its folder), then the bot exited (exit status 1) before the game ended; if the bot needs it, run with --allow-read '/class/bob/My Book.txt'; --sandbox off runs it unconfined, as a last resort on your own machine (docs/sandbox.md)"
    );
    let w = Refusal {
        access: Access::Write,
        path: Some("/srv/log".into()),
    };
    assert!(
        w.remedy()
            .contains("only in its working folder and its TMPDIR")
    );
    assert!(!w.remedy().contains("--allow-read"));
    let c = Refusal {
        access: Access::Connect,
        path: None,
    };
    assert!(c.remedy().contains("only to protocheck's own port"));
    assert_eq!(shell_word("/a/it's"), r"'/a/it'\''s'");
}

#[test]
fn a_jar_the_java_launcher_cannot_open_is_a_refusal_only_where_it_is_there() {
    // The launcher names no cause; an existing jar outside the bot's
    // folders is what the sandbox refused (a wrapper script elsewhere).
    let dir = std::env::temp_dir().join(format!("refusal-jar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jar = dir.join("Agent.jar");
    std::fs::write(&jar, "PK").unwrap();
    let tail = format!("Error: Unable to access jarfile {}\n", jar.display());
    assert_eq!(diag(&tail), file(Access::Read, &jar.display().to_string()));
    // A jar that is not there is the bot's own mistake.
    let missing = "Error: Unable to access jarfile /no/such/Agent.jar\n";
    assert_eq!(diag(missing), None);
    // Without the files layer, never the sandbox.
    let off = Layers::none("--sandbox off");
    assert_eq!(diagnose(&tail, &off, &own()), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
