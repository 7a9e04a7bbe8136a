use super::*;

fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .collect()
}

fn names(env: &BTreeMap<OsString, OsString>) -> Vec<&str> {
    env.keys().map(|k| k.to_str().unwrap()).collect()
}

/// A grader's environment as a CI runner has it.
const GRADER: &[(&str, &str)] = &[
    ("HOME", "/home/grader"),
    ("PATH", "/usr/bin:/bin"),
    ("LANG", "C.UTF-8"),
    ("LC_CTYPE", "C.UTF-8"),
    ("LC_ALL", "C.UTF-8"),
    ("LCX", "not a locale"),
    ("TERM", "xterm"),
    ("JAVA_HOME", "/usr/lib/jvm/java-17"),
    ("PYTHONUNBUFFERED", "1"),
    ("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF8"),
    ("_STDBUF_O", "L"),
    ("LD_PRELOAD", "/usr/libexec/coreutils/libstdbuf.so"),
    ("PYTHONPATH", "/home/grader/solutions"),
    ("CI", "true"),
    ("CI_JOB_TOKEN", "glcbt-secret"),
    ("GITHUB_TOKEN", "ghp_secret"),
    ("AWS_SECRET_ACCESS_KEY", "aws-secret"),
];

#[test]
fn by_default_a_bot_gets_only_the_fixed_environment() {
    let env = EnvPolicy::default().environment(vars(GRADER));
    assert_eq!(
        names(&env),
        [
            "HOME",
            "JAVA_HOME",
            "LANG",
            "LC_ALL",
            "LC_CTYPE",
            "PATH",
            "TERM"
        ]
    );
    // HOME is protocheck's own, not the bot's folder.
    assert_eq!(env[OsStr::new("HOME")], "/home/grader");
}

#[test]
fn lc_is_a_prefix_of_whole_names_only() {
    assert!(allowed("LC_ALL") && allowed("LC_MESSAGES") && allowed("LC_"));
    assert!(!allowed("LCX") && !allowed("LC") && !allowed("XLC_ALL"));
    assert!(!allowed("PATHS") && !allowed("HOMEDIR"));
}

#[test]
fn an_io_switch_stays_out_whatever_list_or_pattern_would_bring_it() {
    for s in IO_SWITCHES {
        assert!(!allowed(s.name), "{} is allowlisted", s.name);
    }
    // A prefix or `*` does not bring one; only its own name does.
    let patterns = EnvPolicy {
        pass: vec!["PYTHON*".into(), "*".into(), "_STDBUF_*".into()],
        ..EnvPolicy::default()
    };
    let env = patterns.environment(vars(GRADER));
    assert!(!env.contains_key(OsStr::new("PYTHONUNBUFFERED")));
    assert!(!env.contains_key(OsStr::new("_STDBUF_O")));
    assert!(!env.contains_key(OsStr::new("JAVA_TOOL_OPTIONS")));
    assert!(env.contains_key(OsStr::new("PYTHONPATH")));
    let named = EnvPolicy {
        pass: vec!["PYTHONUNBUFFERED".into()],
        ..EnvPolicy::default()
    };
    assert_eq!(
        named.environment(vars(GRADER))[OsStr::new("PYTHONUNBUFFERED")],
        "1"
    );
}

#[test]
fn the_lists_name_each_variable_once_and_say_why() {
    let all: Vec<&Allowed> = ALLOWED.iter().chain(LOCATORS).collect();
    for (i, a) in all.iter().enumerate() {
        assert!(
            all[..i].iter().all(|b| b.name != a.name),
            "{} twice",
            a.name
        );
        assert!(!a.why.is_empty(), "{}", a.name);
    }
    for secretish in [
        "PYTHONPATH",
        "NODE_PATH",
        "CLASSPATH",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
    ] {
        assert!(!allowed(secretish), "{secretish}");
    }
}

#[test]
fn pass_env_keeps_one_and_env_sets_one() {
    let policy = EnvPolicy {
        pass: vec!["CI_JOB_TOKEN".into(), "NOT_SET_HERE".into()],
        set: vec![
            ("GHCRTS".into(), "-M1g".into()),
            ("MODE".into(), "a=b".into()),
        ],
    };
    let env = policy.environment(vars(GRADER));
    assert_eq!(env[OsStr::new("CI_JOB_TOKEN")], "glcbt-secret");
    assert_eq!(env[OsStr::new("GHCRTS")], "-M1g");
    assert_eq!(env[OsStr::new("MODE")], "a=b");
    assert!(!env.contains_key(OsStr::new("NOT_SET_HERE")));
    assert!(!env.contains_key(OsStr::new("GITHUB_TOKEN")));
    assert!(!env.contains_key(OsStr::new("JAVA_TOOL_OPTIONS")));
}

#[test]
fn env_wins_over_pass_env_and_the_fixed_environment() {
    let policy = EnvPolicy {
        pass: vec!["CI".into(), "PYTHONUNBUFFERED".into()],
        set: vec![
            ("CI".into(), "false".into()),
            ("HOME".into(), "/elsewhere".into()),
            ("PYTHONUNBUFFERED".into(), "".into()),
        ],
    };
    let env = policy.environment(vars(GRADER));
    assert_eq!(env[OsStr::new("CI")], "false");
    assert_eq!(env[OsStr::new("HOME")], "/elsewhere");
    assert_eq!(env[OsStr::new("PYTHONUNBUFFERED")], "");
    let note = policy.note(vars(GRADER), &[]);
    assert_eq!(note.set, ["CI", "HOME", "PYTHONUNBUFFERED"]);
    // A name set with --env is neither kept, passed nor left out.
    for list in [&note.kept, &note.passed, &note.removed] {
        assert!(!list.iter().any(|n| n == "CI" || n == "HOME"), "{note:?}");
    }
}

#[test]
fn a_prefix_passes_every_name_that_starts_with_it_and_star_passes_all() {
    let policy = EnvPolicy {
        pass: vec!["CI*".into()],
        ..EnvPolicy::default()
    };
    let env = policy.environment(vars(GRADER));
    assert!(env.contains_key(OsStr::new("CI")) && env.contains_key(OsStr::new("CI_JOB_TOKEN")));
    assert!(!env.contains_key(OsStr::new("GITHUB_TOKEN")));
    assert_eq!(
        policy.note(vars(GRADER), &[]).passed,
        ["CI", "CI_JOB_TOKEN"]
    );

    let whole = EnvPolicy {
        pass: vec!["*".into()],
        ..EnvPolicy::default()
    };
    let env = whole.environment(vars(GRADER));
    assert_eq!(
        names(&env),
        [
            "AWS_SECRET_ACCESS_KEY",
            "CI",
            "CI_JOB_TOKEN",
            "GITHUB_TOKEN",
            "HOME",
            "JAVA_HOME",
            "LANG",
            "LCX",
            "LC_ALL",
            "LC_CTYPE",
            "LD_PRELOAD",
            "PATH",
            "PYTHONPATH",
            "TERM"
        ]
    );
    // `*` is the environment before the fixed one, and says so as then.
    let note = whole.note(vars(GRADER), &[]);
    assert_eq!(note.base, NoteBase::Inherited);
    assert_eq!(
        note.removed,
        ["JAVA_TOOL_OPTIONS", "PYTHONUNBUFFERED", "_STDBUF_O"]
    );
    assert!(note.passed.is_empty());
    assert_eq!(
        note.line().unwrap(),
        "bot environment: JAVA_TOOL_OPTIONS, PYTHONUNBUFFERED, _STDBUF_O left out (they change how a runtime buffers, encodes or adds to its output; --pass-env NAME keeps one)"
    );
}

#[test]
fn the_note_names_what_was_kept_left_out_passed_and_set_never_a_value() {
    let policy = EnvPolicy {
        pass: vec!["PYTHONUNBUFFERED".into(), "NOT_SET_HERE".into()],
        set: vec![("JAVA_TOOL_OPTIONS".into(), "-Xmx1g".into())],
    };
    let note = policy.note(vars(GRADER), &["PROTOCHECK_PORT"]);
    assert_eq!(
        note,
        EnvNote {
            base: NoteBase::Clean,
            kept: vec![
                "PATH".into(),
                "HOME".into(),
                "LANG".into(),
                "LC_ALL".into(),
                "LC_CTYPE".into(),
                "TERM".into(),
                "JAVA_HOME".into()
            ],
            game: vec!["PROTOCHECK_PORT".into()],
            removed: vec![
                "AWS_SECRET_ACCESS_KEY".into(),
                "CI".into(),
                "CI_JOB_TOKEN".into(),
                "GITHUB_TOKEN".into(),
                "LCX".into(),
                "LD_PRELOAD".into(),
                "PYTHONPATH".into(),
                "_STDBUF_O".into()
            ],
            passed: vec!["PYTHONUNBUFFERED".into()],
            set: vec!["JAVA_TOOL_OPTIONS".into()],
        }
    );
    let line = note.line().unwrap();
    assert_eq!(
        line,
        "bot environment: clean (PATH, HOME, LANG, LC_ALL, LC_CTYPE, TERM, JAVA_HOME + PROTOCHECK_PORT); 8 of protocheck's variables left out (_STDBUF_O, AWS_SECRET_ACCESS_KEY, CI_JOB_TOKEN, …; --pass-env NAME keeps one); kept on purpose: PYTHONUNBUFFERED; set with --env: JAVA_TOOL_OPTIONS"
    );
    let json = serde_json::to_string(&note).unwrap();
    for text in [&line, &json] {
        assert!(
            !text.contains("secret") && !text.contains("/home/grader"),
            "{text}"
        );
    }
}

#[test]
fn one_left_out_is_named_and_nothing_left_out_says_nothing() {
    let note = EnvPolicy::default().note(vars(&[("PATH", "/bin"), ("CI", "1")]), &[]);
    assert_eq!(
        note.line().unwrap(),
        "bot environment: clean (PATH); CI left out (--pass-env CI keeps it)"
    );
    let plain = EnvPolicy::default().note(
        vars(&[
            ("PATH", "/bin"),
            ("PROTOCHECK_PORT", "1"),
            ("PROTOCHECK_BOT", "run.1"),
        ]),
        &["PROTOCHECK_PORT"],
    );
    assert!(plain.is_plain() && plain.line().is_none());
    let empty = EnvPolicy::default().note(vars(&[("CI", "1")]), &[]);
    assert!(
        empty
            .line()
            .unwrap()
            .starts_with("bot environment: clean (nothing of protocheck's); ")
    );
}

#[test]
fn a_report_written_before_the_clean_environment_still_reads_true() {
    // JSON reports of earlier runs (grade reads them back) have no `base`:
    // their bots got protocheck's environment without the I/O switches.
    let old: EnvNote =
        serde_json::from_str(r#"{"removed": ["PYTHONUNBUFFERED"], "passed": [], "set": []}"#)
            .unwrap();
    assert_eq!(old.base, NoteBase::Inherited);
    assert_eq!(
        old.line().unwrap(),
        "bot environment: PYTHONUNBUFFERED left out (it changes how a runtime buffers, encodes or adds to its output; --pass-env PYTHONUNBUFFERED keeps it)"
    );
    let new = EnvPolicy::default().note(vars(GRADER), &[]);
    let back: EnvNote = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
    assert_eq!(back, new);
    assert!(
        serde_json::to_string(&new)
            .unwrap()
            .starts_with(r#"{"base":"clean","kept":["PATH","#)
    );
}

#[test]
fn a_name_given_twice_is_noted_once_and_the_flags_are_given_back_in_order() {
    let policy = EnvPolicy {
        pass: vec!["CI".into(), "HOME".into(), "CI".into()],
        set: vec![("A".into(), "1 2".into()), ("A".into(), "3".into())],
    };
    let note = policy.note(vars(GRADER), &[]);
    assert_eq!(note.passed, ["CI", "HOME"]);
    assert_eq!(note.set, ["A"]);
    assert_eq!(
        policy.words(),
        [
            "--pass-env",
            "CI",
            "--pass-env",
            "HOME",
            "--pass-env",
            "CI",
            "--env",
            "A=1 2",
            "--env",
            "A=3"
        ]
    );
}

#[test]
fn the_games_variables_come_last() {
    let env = BotEnv {
        policy: EnvPolicy {
            set: vec![("PROTOCHECK_PORT".into(), "1".into())],
            ..EnvPolicy::default()
        },
        game: vec![("PROTOCHECK_PORT".into(), "40000".into())],
    };
    assert_eq!(
        env.environment(vars(GRADER))[OsStr::new("PROTOCHECK_PORT")],
        "40000"
    );
    assert_eq!(
        game_variables(crate::transport::Transport::Tcp),
        ["PROTOCHECK_PORT"]
    );
    assert!(game_variables(crate::transport::Transport::Stdio).is_empty());
}

#[test]
fn every_switch_is_named_once_and_explained() {
    for (i, s) in IO_SWITCHES.iter().enumerate() {
        assert!(
            IO_SWITCHES[..i].iter().all(|t| t.name != s.name),
            "{} twice",
            s.name
        );
        assert!(!s.effect.is_empty() && !s.runtime.is_empty(), "{}", s.name);
    }
    assert!(io_switch("PYTHONUNBUFFERED").is_some());
    assert!(io_switch("HOME").is_none());
}

#[test]
fn settings_names_and_patterns_are_checked() {
    assert_eq!(
        parse_setting("A=b=c"),
        Ok(("A".to_string(), "b=c".to_string()))
    );
    assert_eq!(parse_setting("A="), Ok(("A".to_string(), String::new())));
    assert!(parse_setting("A").is_err());
    assert!(parse_setting("=b").is_err());
    assert!(parse_setting("A*=b").is_err());
    assert!(parse_name("A=b").is_err());
    assert!(parse_name("").is_err());
    assert_eq!(
        parse_name("PYTHONUNBUFFERED").as_deref(),
        Ok("PYTHONUNBUFFERED")
    );
    assert_eq!(parse_pass("KALAH_BOT_*").as_deref(), Ok("KALAH_BOT_*"));
    assert_eq!(parse_pass("*").as_deref(), Ok("*"));
    assert_eq!(parse_pass("CI").as_deref(), Ok("CI"));
    assert!(parse_pass("").is_err());
    assert!(parse_pass("A*B").is_err());
    assert!(parse_pass("**").is_err());
    assert!(parse_pass("A=*").is_err());
}

#[test]
fn apply_removes_and_sets_over_protocheck_s_own() {
    // Whatever protocheck's own environment holds, the command ends up
    // with exactly the bot's environment.
    let env = BotEnv {
        policy: EnvPolicy {
            set: vec![("PROTOCHECK_ENV_TEST".into(), "x".into())],
            ..EnvPolicy::default()
        },
        game: Vec::new(),
    };
    let mut command = Command::new("true");
    env.apply(&mut command);
    let changes: Vec<(&OsStr, Option<&OsStr>)> = command.get_envs().collect();
    assert!(changes.contains(&(OsStr::new("PROTOCHECK_ENV_TEST"), Some(OsStr::new("x")))));
    for (name, value) in &changes {
        if value.is_none() {
            assert!(!allowed(name.to_str().unwrap()), "{name:?} removed");
        }
    }
    for (name, _) in std::env::vars_os() {
        let removed = changes.iter().any(|(n, v)| *n == name && v.is_none());
        assert_eq!(removed, !name.to_str().is_some_and(allowed), "{name:?}");
    }
}

#[test]
fn the_docs_name_every_variable_of_the_lists() {
    let doc = include_str!("../../../docs/environment.md");
    for name in ALLOWED
        .iter()
        .chain(LOCATORS)
        .map(|a| a.name)
        .chain(IO_SWITCHES.iter().map(|s| s.name))
    {
        assert!(
            doc.contains(&format!("`{name}`")),
            "{name} not in docs/environment.md"
        );
    }
}

#[test]
fn refused_flags_say_why_in_the_flags_words() {
    let said = |e: EnvFlagError| e.to_string();
    assert_eq!(
        said(parse_setting("A").unwrap_err()),
        "`A` is not NAME=VALUE"
    );
    assert_eq!(
        said(parse_setting("A*=b").unwrap_err()),
        "`A*` is not a variable name (non-empty, without `=` or `*`)"
    );
    assert_eq!(
        parse_setting("A=b\0c"),
        Err(EnvFlagError::NulInValue { name: "A".into() })
    );
    assert_eq!(
        said(parse_setting("A=b\0c").unwrap_err()),
        "a value cannot hold a NUL byte"
    );
    assert_eq!(
        said(parse_pass("A*B").unwrap_err()),
        "`A*B` is not a variable name, a prefix followed by `*`, or `*`"
    );
}
