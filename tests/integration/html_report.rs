//! `--format html`: the page's structure pinned as a snapshot, and the page
//! exercised in a real browser — headless Chromium driven over WebDriver
//! (`chromedriver`, plain HTTP on loopback) with JavaScript on: it renders
//! every scenario, its filters hide and show them, and stepping through a
//! failing game changes the board. Where no Chromium is installed the
//! browser tests say so and pass (`.ci/run` installs it).

use crate::common;
use assert_cmd::Command;
use common::*;
use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Run protocheck; `output`: `--output FILE`, else the report is stdout.
fn protocheck(args: &[&str], format: &str, output: Option<&Path>) -> (i32, String) {
    let mut cmd = Command::cargo_bin("protocheck").unwrap();
    cmd.with_fixed_environment();
    cmd.args(args).args(["--jobs", "1", "--format", format]);
    if let Some(path) = output {
        cmd.arg("--output").arg(path);
    }
    let out = cmd
        .args(["--env", "KALAH_BOT_SEED=7", "--env", "KALAH_BOT_SWAP=never"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn quoridor_args() -> Vec<String> {
    vec![
        "--game".into(),
        "quoridor".into(),
        "--scenarios".into(),
        fixture("quoridor/sidestep.yaml"),
        bot("qtp-sidestep-through-wall"),
    ]
}

fn kalah_args() -> Vec<String> {
    vec!["--game".into(), "kalah".into(), bot("kalah-zero-based")]
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

// ---------------------------------------------------------------------------
// The structure snapshot.

/// A stable digest of text (FNV-1a), to pin long bodies without their text.
fn digest(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{} bytes, fnv {h:016x}", text.len())
}

/// The document with what is not structure replaced: style and script
/// bodies and each SVG's shapes by their digest, timings, paths, version.
fn outline(html: &str, bot: &str) -> String {
    let mut text = canonical_sandbox(html)
        .replace(bot, "<bot>")
        .replace(env!("CARGO_MANIFEST_DIR"), "<repo>")
        .replace(protocheck::build_info::LONG, "<version>")
        .replace(env!("CARGO_PKG_VERSION"), "<version>");
    let bodies: [(&str, &str); 3] = [
        (r"(?s)(<style>\n)(.*?)(</style>)", "style"),
        (r"(?s)(<script>\n)(.*?)(</script>)", "script"),
        (r#"(?s)(<svg [^>]*>)(.*?)(</svg>)"#, "svg"),
    ];
    for (pattern, _) in bodies {
        text = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&text, |c: &regex::Captures| {
                format!("{}/* {} */{}", &c[1], digest(&c[2]), &c[3])
            })
            .into_owned();
    }
    let rules: [(&str, &str); 3] = [
        // Whether a bot left at EOF or at SIGTERM is timing.
        (
            r"protocheck stopped the bot \([^)]*\)+",
            "protocheck stopped the bot (<how>)",
        ),
        (r"\d+ ?ms\b", "<t>ms"),
        (r"the bot exited: [^<]*", "the bot exited: <how>"),
    ];
    for (pattern, with) in rules {
        text = regex::Regex::new(pattern)
            .unwrap()
            .replace_all(&text, with)
            .into_owned();
    }
    text
}

macro_rules! pin {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn html_structure_is_pinned() {
    let kalah = [
        "--game".to_string(),
        "kalah".into(),
        "--scenarios".into(),
        fixture("kalah/snapshot-fail.yaml"),
        bot("kalah-zero-based"),
    ];
    let (code, html) = protocheck(&strs(&kalah), "html", None);
    assert_eq!(code, 1, "{html}");
    pin!("kalah-fail-html", outline(&html, &bot("kalah-zero-based")));
    let (code, html) = protocheck(&strs(&quoridor_args()), "html", None);
    assert_eq!(code, 1, "{html}");
    pin!(
        "quoridor-fail-html",
        outline(&html, &bot("qtp-sidestep-through-wall"))
    );
}

/// A bot line with `</script><script>` is shown as text, never run.
#[test]
fn bot_output_is_escaped() {
    let dir = Scratch::new();
    let script = dir.0.join("bot.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nread line\necho 'MOVE;1</script><script>document.title=\"pwned\"</script>'\nread line\n",
    )
    .unwrap();
    let (code, html) = protocheck(
        &[
            "--game",
            "kalah",
            "--scenarios",
            &fixture("kalah/snapshot-fail.yaml"),
            "--bot-cmd",
            &format!("sh {}", script.display()),
        ],
        "html",
        None,
    );
    assert_eq!(code, 1, "{html}");
    assert_eq!(html.matches("<script>").count(), 1, "{html}");
    assert!(html.contains(
        "MOVE;1&lt;/script&gt;&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;"
    ));
    // Other formats are untouched by pictures: the JSON report has none.
    let (_, json) = protocheck(
        &[
            "--game",
            "kalah",
            "--scenarios",
            &fixture("kalah/snapshot-fail.yaml"),
            &bot("kalah-zero-based"),
        ],
        "json",
        None,
    );
    assert!(!json.contains("\"frames\""), "{json}");
    if let Some(browser) = Browser::start() {
        let page = dir.0.join("escaped.html");
        std::fs::write(&page, &html).unwrap();
        browser.open(&page);
        let title = browser.eval("return document.title;");
        assert!(title.as_str().unwrap().starts_with("protocheck"), "{title}");
        let shown = browser
            .eval("return document.querySelector('.transcript li.received code').textContent;");
        assert!(
            shown.as_str().unwrap().contains("</script><script>"),
            "{shown}"
        );
    }
}

// ---------------------------------------------------------------------------
// In the browser.

#[test]
fn kalah_report_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Scratch::new();
    let page = dir.0.join("kalah.html");
    let (code, _) = protocheck(&strs(&kalah_args()), "html", Some(&page));
    assert_eq!(code, 1);
    // What the page must show, from the JSON report of the same run.
    let (_, json) = protocheck(&strs(&kalah_args()), "json", None);
    let report: Value = serde_json::from_str(&json).unwrap();
    let scenarios = report["scenarios"].as_array().unwrap();
    let failed = count(scenarios, |s| s["status"] == "failed");
    assert!(failed > 0 && failed < scenarios.len());
    let rule = "kalah.move.hole-range";
    let with_rule = count(scenarios, |s| {
        s["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["rule"] == rule)
    });
    assert!(with_rule > 0);

    browser.open(&page);
    assert_eq!(browser.visible_scenarios(), scenarios.len());
    assert_eq!(
        browser.eval("return document.getElementById('shown').textContent;"),
        json!(format!("{0} of {0} shown", scenarios.len()))
    );
    // Filters: only failures, then only those with one rule, then all again.
    for status in ["passed", "skipped", "error"] {
        if let Some(box_) = browser.find(&format!("#filters input[value={status}]")) {
            browser.click(&box_);
        }
    }
    assert_eq!(browser.visible_scenarios(), failed);
    let option = browser
        .find(&format!("#rule-filter option[value='{rule}']"))
        .expect("the rule is offered");
    browser.click(&option);
    assert_eq!(browser.visible_scenarios(), with_rule);
    browser.click(&browser.find("#rule-filter option[value='']").unwrap());
    for status in ["passed", "skipped"] {
        browser.click(
            &browser
                .find(&format!("#filters input[value={status}]"))
                .unwrap(),
        );
    }
    assert_eq!(browser.visible_scenarios(), scenarios.len());

    // Stepping through the longest failing game changes the board.
    let index = scenarios
        .iter()
        .enumerate()
        .filter(|(_, s)| s["status"] == "failed")
        .max_by_key(|(_, s)| s["transcript"].as_array().unwrap().len())
        .map(|(i, _)| i)
        .unwrap();
    // It may be closed: its finding shown in full in an earlier scenario.
    browser.eval(&format!(
        "document.querySelector('#scenario-{index}').open = true; return null;"
    ));
    browser.steps_change_the_board(&format!("#scenario-{index}"));
}

/// Issue 19, item 11: failures come first on the page, and the failing
/// step's board marks the hole the bot's move named.
#[test]
fn failures_first_and_the_named_hole_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Scratch::new();
    let page = dir.0.join("swap.html");
    let args = ["--game", "kalah", "--filter", "*swap*"];
    let bot = bot("kalah-ignores-swap");
    let run = |format: &str, output: Option<&Path>| {
        protocheck(&[&args[..], &[bot.as_str()]].concat(), format, output)
    };
    let (code, _) = run("html", Some(&page));
    assert_eq!(code, 1);
    let (_, json) = run("json", None);
    let report: Value = serde_json::from_str(&json).unwrap();
    let scenarios = report["scenarios"].as_array().unwrap();
    let failed = count(scenarios, |s| s["status"] == "failed");
    assert!(failed > 0 && failed < scenarios.len(), "{json}");
    // In the suite, a failure comes after a scenario that does not fail.
    assert_ne!(scenarios[0]["status"], "failed", "{json}");

    browser.open(&page);
    let statuses = browser.eval(
        "return Array.from(document.querySelectorAll('details.scenario')).map(s => s.dataset.status);",
    );
    let statuses: Vec<&str> = statuses
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), scenarios.len());
    assert!(
        statuses[..failed].iter().all(|s| *s == "failed"),
        "{statuses:?}"
    );
    assert!(!statuses[failed..].contains(&"failed"), "{statuses:?}");
    // The stepper opens at the failing step; its board rings the hole.
    let first = browser.eval("return document.querySelector('details.scenario.failed').id;");
    let board = browser.visible_board(&format!("#{}", first.as_str().unwrap()));
    assert_eq!(board.matches("class=\"ink-named\"").count(), 1, "{board}");
}

/// Issue 19, item 11: a `code span` in a finding's message is shown as
/// code, without its backticks.
#[test]
fn a_code_span_in_a_message_is_code_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Scratch::new();
    let page = dir.0.join("quoridor.html");
    let (code, _) = protocheck(&strs(&quoridor_args()), "html", Some(&page));
    assert_eq!(code, 1);
    browser.open(&page);
    let shown = browser.eval(
        "const m = document.querySelector('details.scenario.failed .finding .message'); \
         return [m.textContent, m.querySelector('code') && m.querySelector('code').textContent];",
    );
    assert_eq!(
        shown,
        json!([
            "playmove white D5: accepted, but white D5 is illegal: the side-step crosses a wall",
            "playmove white D5"
        ])
    );
}

/// Issue 19, item 8: a bot that fails every built-in scenario the same way
/// (it exits at once) gets the finding in full once; the other scenarios
/// stay closed, say where it is, and are listed by name under it.
#[test]
fn identical_findings_are_shown_once_on_the_page() {
    let args = ["--game", "kalah", "--keep-going", "--bot-cmd", "false"];
    let dir = Scratch::new();
    let page = dir.0.join("crash.html");
    let (code, _) = protocheck(&args, "html", Some(&page));
    assert_eq!(code, 1);
    let (_, json) = protocheck(&args, "json", None);
    let report: Value = serde_json::from_str(&json).unwrap();
    let scenarios = report["scenarios"].as_array().unwrap();
    let failed: Vec<(usize, &str)> = scenarios
        .iter()
        .enumerate()
        .filter(|(_, s)| s["status"] == "failed")
        .map(|(i, s)| (i, s["name"].as_str().unwrap()))
        .collect();
    assert!(failed.len() > 3);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<p class=\"message\">").count(), 1);
    assert_eq!(
        html.matches("class=\"scenario failed grouped\"").count(),
        failed.len() - 1
    );

    let Some(browser) = Browser::start() else {
        return;
    };
    browser.open(&page);
    assert_eq!(browser.visible_scenarios(), scenarios.len());
    let (first, first_name) = failed[0];
    assert_eq!(
        browser.eval(
            "return Array.from(document.querySelectorAll('details.scenario[open]')).map(d => d.id);"
        ),
        json!([format!("scenario-{first}")])
    );
    // Under the one full finding: the other scenarios, by name.
    let others: Vec<&str> = failed[1..].iter().map(|(_, n)| *n).collect();
    assert_eq!(
        browser.eval(&format!(
            "return document.querySelector('#scenario-{first} .same-finding').textContent;"
        )),
        json!(format!(
            "and {} more scenarios with the same finding: {}",
            others.len(),
            others.join(", ")
        ))
    );
    // Each closed one says where the finding is, and its link goes there.
    let (second, _) = failed[1];
    assert_eq!(
        browser.eval(&format!(
            "return document.querySelector('#scenario-{second} summary .same-as').textContent;"
        )),
        json!(format!(
            "the same finding as {first_name}, shown in full there"
        ))
    );
    let link = browser
        .find(&format!("#scenario-{second} summary .same-as a"))
        .unwrap();
    browser.click(&link);
    assert_eq!(
        browser.eval("return location.hash;"),
        json!(format!("#scenario-{first}"))
    );
    assert_eq!(
        browser.eval(&format!(
            "return document.querySelector('#scenario-{second}').open;"
        )),
        json!(false),
        "following the link does not open the closed block"
    );
    // Its own game is still there to step through, inside the closed block.
    assert_eq!(
        browser.eval(&format!(
            "return document.querySelectorAll('#scenario-{second} .stepper').length;"
        )),
        json!(1)
    );
}

#[test]
fn quoridor_report_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = Scratch::new();
    let page = dir.0.join("quoridor.html");
    let (code, _) = protocheck(&strs(&quoridor_args()), "html", Some(&page));
    assert_eq!(code, 1);
    browser.open(&page);
    assert_eq!(browser.visible_scenarios(), 1);
    // The failing step is shown first, marked with its rule.
    let marked = browser.eval(
        "return document.querySelector('#scenario-0 .transcript li.current .marker').textContent;",
    );
    assert_eq!(marked, json!("quoridor.playmove.rejects-illegal"));
    // The board at the failing step: both pawns and the two walls.
    let board = browser.visible_board("#scenario-0");
    assert_eq!(board.matches("<circle").count(), 2, "{board}");
    // Two walls: E5 horizontal, and D6 horizontal marked as the last move.
    assert_eq!(board.matches("class=\"ink-wall\"").count(), 1, "{board}");
    assert_eq!(board.matches("class=\"ink-marked\"").count(), 1, "{board}");
    browser.steps_change_the_board("#scenario-0");
}

fn count(scenarios: &[Value], f: impl Fn(&Value) -> bool) -> usize {
    scenarios.iter().filter(|s| f(s)).count()
}

// ---------------------------------------------------------------------------
// A minimal WebDriver client: chromedriver over HTTP/1.1 on loopback.

struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: Scratch,
}

/// The first of `names` found on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

impl Browser {
    /// A headless Chromium, or `None` (said on stderr) where there is none.
    fn start() -> Option<Browser> {
        let Some(chromium) = on_path(&["chromium", "chromium-browser", "google-chrome"]) else {
            eprintln!(
                "html_report: browser test not run: no chromium on PATH (apt-get install chromium chromium-driver)"
            );
            return None;
        };
        let Some(chromedriver) = on_path(&["chromedriver"]) else {
            eprintln!(
                "html_report: browser test not run: no chromedriver on PATH (apt-get install chromium-driver)"
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let driver = std::process::Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = Scratch::new();
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while browser.request("GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", browser._profile.0.display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let created = browser.call("POST", "/session", Some(caps));
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        Some(browser)
    }

    /// One HTTP exchange; the response body as JSON.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> std::io::Result<Value> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )?;
        // chromedriver keeps the connection open despite `Connection:
        // close`: read the head, then as many bytes as it announces.
        let mut reader = std::io::BufReader::new(stream);
        let mut length = None;
        let mut chunked = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("the response ended in its head"));
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                let name = name.trim().to_ascii_lowercase();
                if name == "content-length" {
                    length = value.trim().parse::<usize>().ok();
                } else if name == "transfer-encoding" && value.contains("chunked") {
                    chunked = true;
                }
            }
        }
        let body = if chunked {
            let mut body = Vec::new();
            loop {
                let mut size = String::new();
                reader.read_line(&mut size)?;
                let n = usize::from_str_radix(size.trim(), 16).map_err(std::io::Error::other)?;
                let mut chunk = vec![0; n + 2];
                reader.read_exact(&mut chunk)?;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
            body
        } else {
            let mut body = vec![0; length.unwrap_or(0)];
            reader.read_exact(&mut body)?;
            body
        };
        let body = String::from_utf8_lossy(&body);
        serde_json::from_str(&body).map_err(|e| std::io::Error::other(format!("{e}: {body}")))
    }

    /// A WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let answer = self
            .request(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let value = answer["value"].clone();
        assert!(value.get("error").is_none(), "{method} {path}: {value}");
        value
    }

    fn command(&self, method: &str, what: &str, body: Value) -> Value {
        self.call(
            method,
            &format!("/session/{}/{what}", self.session),
            Some(body),
        )
    }

    fn open(&self, file: &Path) {
        self.command(
            "POST",
            "url",
            json!({"url": format!("file://{}", file.display())}),
        );
        // Navigation can return while a large page is still being parsed
        // (seen once on a cold browser: 14 of 43 scenarios in the DOM), so
        // wait until the whole document and its script have run.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while self.eval("return document.readyState;") != json!("complete") {
            assert!(
                std::time::Instant::now() < deadline,
                "the page did not finish loading within 20 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    fn eval(&self, script: &str) -> Value {
        self.command(
            "POST",
            "execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    fn find(&self, css: &str) -> Option<String> {
        let found = self
            .request(
                "POST",
                &format!("/session/{}/elements", self.session),
                Some(json!({"using": "css selector", "value": css})),
            )
            .unwrap();
        found["value"].as_array()?.first().map(|e| {
            e["element-6066-11e4-a52e-4f735466cecf"]
                .as_str()
                .unwrap_or_else(|| panic!("{css}: no element reference in {found}"))
                .to_string()
        })
    }

    fn click(&self, element: &str) {
        self.command("POST", &format!("element/{element}/click"), json!({}));
    }

    /// A key pressed and released (WebDriver key codes: U+E012 is ←).
    fn key(&self, key: char) {
        let k = key.to_string();
        self.command(
            "POST",
            "actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]}),
        );
    }

    /// Scenarios the page lays out (not hidden by a filter).
    fn visible_scenarios(&self) -> usize {
        self.eval("return Array.from(document.querySelectorAll('details.scenario')).filter(s => s.offsetParent !== null).length;")
            .as_u64()
            .unwrap() as usize
    }

    /// The markup of the board the scenario's stepper shows now.
    /// The shown board's markup as it is drawn: a shape a long game's
    /// pictures share is written once and `<use>`d (`svg::Stock`); here it
    /// stands in place again, so the markup reads the same either way.
    fn visible_board(&self, scenario: &str) -> String {
        let shown = self.eval(&format!(
            "return Array.from(document.querySelectorAll('{scenario} .boards figure')).filter(f => f.offsetParent !== null).map(f => {{ {INLINE_STOCK} return c.innerHTML; }});"
        ));
        let shown = shown.as_array().unwrap();
        assert_eq!(shown.len(), 1, "exactly one board is shown: {shown:?}");
        shown[0].as_str().unwrap().to_string()
    }

    fn position(&self, scenario: &str) -> String {
        self.eval(&format!(
            "return document.querySelector('{scenario} .pos').textContent;"
        ))
        .as_str()
        .unwrap()
        .to_string()
    }

    /// From the failing step, ← goes back until the board differs; the
    /// "next" button then shows the board of the step after it again.
    fn steps_change_the_board(&self, scenario: &str) {
        let next = self.find(&format!("{scenario} button.next")).unwrap();
        let prev = self.find(&format!("{scenario} button.prev")).unwrap();
        // The stepper becomes the one the keys move.
        self.click(&next);
        self.click(&prev);
        let start = self.position(scenario);
        let mut boards = vec![self.visible_board(scenario)];
        let mut positions = vec![start.clone()];
        for _ in 0..40 {
            self.key('\u{E012}');
            positions.push(self.position(scenario));
            boards.push(self.visible_board(scenario));
            if boards[boards.len() - 1] != boards[boards.len() - 2] {
                break;
            }
        }
        let n = boards.len();
        assert!(
            n >= 2 && boards[n - 1] != boards[n - 2],
            "stepping back from {start} never changed the board: {positions:?}"
        );
        assert_ne!(positions[n - 1], positions[n - 2], "← moved the stepper");
        let changed_at = boards[n - 1].clone();
        self.click(&next);
        assert_eq!(self.position(scenario), positions[n - 2]);
        let after = self.visible_board(scenario);
        assert_ne!(after, changed_at, "\"next\" changed the board back");
        assert_eq!(after, boards[n - 2]);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.request("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// A fresh directory under the system's temporary one, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("protocheck-html-report-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------
// Issue 19, item 12: pictures for the games that had none. Each runs a
// failing sample bot through one scenario, opens the page and steps through
// the failing game: the picture is there at the failing step, shows what the
// game's state holds, and changes between steps.

fn scenario_file(rel: &str) -> String {
    format!("{}/scenarios/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The page of one failing scenario, opened; `None` without a browser.
fn failing_page(game: &str, scenario: &str, bot_name: &str) -> Option<(Browser, Scratch)> {
    let browser = Browser::start()?;
    let dir = Scratch::new();
    let page = dir.0.join(format!("{game}.html"));
    let scenario = scenario_file(scenario);
    let bot = bot(bot_name);
    let args = ["--game", game, "--scenarios", &scenario, &bot];
    let (code, _) = protocheck(&args, "html", Some(&page));
    assert_eq!(code, 1, "{bot_name} fails {scenario}");
    browser.open(&page);
    assert_eq!(browser.visible_scenarios(), 1);
    Some((browser, dir))
}

impl Browser {
    /// The rule marked on the failing step, which the stepper shows first.
    fn failing_rule(&self, scenario: &str) -> Value {
        self.eval(&format!(
            "return document.querySelector('{scenario} .transcript li.current .marker').textContent;"
        ))
    }

    /// The markup every step's picture shares (drawn once, used by each).
    fn ground(&self, scenario: &str) -> String {
        self.eval(&format!(
            "const g = document.querySelector('{scenario} .boards svg.ground'); return g ? g.innerHTML : '';"
        ))
        .as_str()
        .unwrap()
        .to_string()
    }
}

/// JavaScript: `c`, a copy of figure `f` with each stocked shape it
/// `<use>`s put back in its place (without its id).
const INLINE_STOCK: &str = "const c = f.cloneNode(true); c.querySelectorAll('use').forEach(u => { const ref = u.getAttribute('href') || ''; if (!ref.startsWith('#shape-')) return; const shape = document.getElementById(ref.slice(1)).cloneNode(true); shape.removeAttribute('id'); u.replaceWith(shape); });";

fn text_shown(markup: &str, text: &str) -> bool {
    markup.contains(&format!(">{text}</text>"))
}

#[test]
fn dominion_sexp_picture_in_a_browser() {
    let Some((browser, _dir)) = failing_page(
        "dominion-sexp",
        "dominion-sexp/01-whole-game-2p-seat1.yaml",
        "dsx-second-buy",
    ) else {
        return;
    };
    let s = "#scenario-0";
    assert_eq!(browser.failing_rule(s), json!("dominion-sexp.buy.no-buys"));
    // Drawn once for every step: the seven piles by name, the bot's rows.
    let ground = browser.ground(s);
    for label in [
        "copper",
        "silver",
        "gold",
        "estate",
        "duchy",
        "province",
        "mine",
        "supply",
        "played this turn",
        "the bot's hand",
        "the bot's deck",
        "the bot's discard",
    ] {
        assert!(text_shown(&ground, label), "{label}: {ground}");
    }
    // At the failing step the bot has bought: no buy is left, and the
    // treasure it added last is marked as the card just played.
    let board = browser.visible_board(s);
    assert!(board.contains("actions 0, buys 0, coins"), "{board}");
    assert_eq!(board.matches("class=\"ink-marked\"").count(), 1, "{board}");
    assert!(board.contains("the bot's turn; the bot is"), "{board}");
    browser.steps_change_the_board(s);
}

#[test]
fn dominion_text_picture_in_a_browser() {
    let Some((browser, _dir)) = failing_page(
        "dominion-text",
        "dominion-text/04-whole-game-2p-seat1.yaml",
        "dtext-ignores-actions",
    ) else {
        return;
    };
    let s = "#scenario-0";
    assert_eq!(
        browser.failing_rule(s),
        json!("dominion-text.action.no-actions")
    );
    let ground = browser.ground(s);
    for label in ["curse", "cellar", "militia", "workshop", "the bot's hand"] {
        assert!(text_shown(&ground, label), "{label}: {ground}");
    }
    // The failing reply ended the bot's turn (the document's recovery):
    // the picture after it is the next player's turn.
    let board = browser.visible_board(s);
    assert!(board.contains("player2's turn: actions 1,"), "{board}");
    browser.steps_change_the_board(s);
    // The request the bot answered: its turn, no action left, the terminal
    // action it played last marked.
    let (next, prev) = (
        browser.find(&format!("{s} button.next")).unwrap(),
        browser.find(&format!("{s} button.prev")).unwrap(),
    );
    browser.click(&browser.find(&format!("{s} button.failing")).unwrap());
    let failing = browser.position(s);
    browser.click(&prev);
    assert_ne!(browser.position(s), failing);
    let board = browser.visible_board(s);
    assert!(board.contains("player1's turn: actions 0,"), "{board}");
    assert_eq!(board.matches("class=\"ink-marked\"").count(), 1, "{board}");
    browser.click(&next);
    assert_eq!(browser.position(s), failing);
}

#[test]
fn evolution_picture_in_a_browser() {
    let Some((browser, _dir)) = failing_page(
        "evolution",
        "evolution/26-largest-hungry-is-carnivore.yaml",
        "evo-feeds-carnivore",
    ) else {
        return;
    };
    let s = "#scenario-0";
    assert_eq!(
        browser.failing_rule(s),
        json!("evolution.feed.vegetarian-is-carnivore")
    );
    let ground = browser.ground(s);
    for label in [
        "watering hole",
        "the bot",
        "player 2",
        "player 4",
        "the bot's hand",
    ] {
        assert!(text_shown(&ground, label), "{label}: {ground}");
    }
    // At the failing step: the bot's carnivore (population 4, body 2) is
    // hungry beside the other players' boards.
    let board = browser.visible_board(s);
    assert!(text_shown(&board, "carnivore"), "{board}");
    assert!(board.contains("pop 4 body 2"), "{board}");
    assert!(board.contains("food 0"), "{board}");
    browser.steps_change_the_board(s);
}
