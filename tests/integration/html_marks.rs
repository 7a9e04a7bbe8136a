//! The HTML report's step-through marks what the bot's reply named (issue
//! 19, item 11): the hole of a Kalah move, the square or wall of a Quoridor
//! `genmove` answer — in the frame of that reply, where the board drawn is
//! the one the move was judged on, legal or not.

use crate::common;
use assert_cmd::Command;
use common::*;
use regex::Regex;

/// The HTML report of a run (exit 1: the bot fails).
fn html_report(args: &[&str]) -> String {
    let out = Command::cargo_bin("protocheck")
        .unwrap()
        .args(args)
        .args([
            "--jobs",
            "1",
            "--format",
            "html",
            "--pass-env",
            "KALAH_BOT_SEED",
        ])
        .env("KALAH_BOT_SEED", "7")
        .env(
            "XDG_CACHE_HOME",
            std::env::temp_dir().join("protocheck-html-marks-cache"),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The failing reply's text and the figure drawn beside it.
fn failing_reply(html: &str) -> (String, String) {
    let line = Regex::new(
        r#"<li class="received" data-frame="(\d+)" data-finding="fail">.*?<code>([^<]*)</code>"#,
    )
    .unwrap();
    let c = line
        .captures(html)
        .expect("a failing reply in the transcript");
    (c[2].to_string(), figure(html, &c[1]))
}

fn figure(html: &str, frame: &str) -> String {
    let start = html
        .find(&format!("<figure class=\"board\" data-frame=\"{frame}\""))
        .expect("the frame's figure");
    let end = start + html[start..].find("</figure>").unwrap();
    html[start..end].to_string()
}

/// The numbers of the one shape drawn with the named ink.
fn named(figure: &str) -> Vec<(String, i32)> {
    let shape = Regex::new(r#"<(circle|rect) ([^>]*)class="ink-named"/>"#).unwrap();
    let found: Vec<_> = shape.captures_iter(figure).collect();
    assert_eq!(found.len(), 1, "one named mark in {figure}");
    Regex::new(r#"([a-z]+)="(-?\d+)""#)
        .unwrap()
        .captures_iter(&found[0][2])
        .map(|a| (a[1].to_string(), a[2].parse().unwrap()))
        .collect()
}

fn attr(attrs: &[(String, i32)], name: &str) -> i32 {
    attrs.iter().find(|(n, _)| n == name).unwrap().1
}

/// Where a label of the board is drawn: (x, y).
fn label(html: &str, text: &str) -> (i32, i32) {
    let c = Regex::new(&format!(
        r#"<text x="(-?\d+)" y="(-?\d+)" [^>]*class="ink-label">{text}</text>"#
    ))
    .unwrap()
    .captures(html)
    .unwrap_or_else(|| panic!("no label {text}"));
    (c[1].parse().unwrap(), c[2].parse().unwrap())
}

#[test]
fn kalah_rings_the_hole_the_failing_move_named() {
    // Swapped to North, the bot still plays its South favourite: hole 4,
    // empty on its new side.
    let html = html_report(&[
        "--game",
        "kalah",
        "--filter",
        "being-swapped",
        &bot("kalah-ignores-swap"),
    ]);
    let (reply, figure) = failing_reply(&html);
    assert_eq!(reply, "MOVE;4");
    let ring = named(&figure);
    let (north_x, north_y) = label(&html, "N4");
    let (_, south_y) = label(&html, "S4");
    assert_eq!(attr(&ring, "cx"), north_x, "{ring:?}");
    let cy = attr(&ring, "cy");
    assert!(
        (cy - north_y).abs() < (cy - south_y).abs(),
        "on North's row: {ring:?}"
    );
    // Before the bot has said anything, nothing is named.
    assert!(!self::figure(&html, "0").contains("ink-named"));
}

#[test]
fn quoridor_outlines_the_square_a_failing_genmove_named() {
    let html = html_report(&[
        "--game",
        "quoridor",
        "--filter",
        "genmove-forced-sidestep",
        &bot("qtp-algebraic-walls"),
    ]);
    let (reply, figure) = failing_reply(&html);
    assert_eq!(reply, "= B2");
    let cell = named(&figure);
    let half = attr(&cell, "width") / 2;
    assert_eq!(attr(&cell, "x") + half, label(&html, "B").0, "{cell:?}");
    assert_eq!(attr(&cell, "y") + half, label(&html, "2").1, "{cell:?}");
}

#[test]
fn quoridor_draws_the_wall_a_failing_genmove_named() {
    let html = html_report(&[
        "--game",
        "quoridor",
        "--filter",
        "genmove-self-play",
        &bot("qtp-algebraic-walls"),
    ]);
    let (reply, figure) = failing_reply(&html);
    assert_eq!(reply, "= C1 h");
    let wall = named(&figure);
    let (width, height) = (attr(&wall, "width"), attr(&wall, "height"));
    assert!(width > 2 * height, "horizontal: {wall:?}");
    // Column C under its first half; under row 1 (off the board: illegal).
    let (c_x, _) = label(&html, "C");
    let (_, row_1_y) = label(&html, "1");
    let x = attr(&wall, "x");
    assert!(x < c_x && c_x < x + width / 2, "{wall:?}");
    assert!(attr(&wall, "y") > row_1_y, "{wall:?}");
}
