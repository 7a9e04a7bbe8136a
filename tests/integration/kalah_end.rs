//! A scripted END is sent once the due reply has been judged (issue 32):
//! in `abort-while-bot-to-move` a bot that takes its time over the turn
//! has its move judged before END goes out, so nothing it writes is lost
//! between the turn and END, and anything after END is output after END.

use crate::common;
use common::*;

/// The transcript as (direction, text) pairs.
fn transcript(out: &Outcome) -> Vec<(String, String)> {
    out.report["scenarios"][0]["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["dir"].as_str().unwrap_or("").to_string(),
                l["text"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_slow_move_to_the_aborted_turn_is_judged_before_end() {
    let bot = bot("kalah-slow");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "abort-while-bot-to-move",
            "--strict",
            &bot,
        ],
        &[("KALAH_BOT_DELAY_MS", "300")],
    );
    assert_eq!(out.code, 0, "{:?}\n{}", out.rules(), out.messages());
    let lines = transcript(&out);
    let reply = lines
        .iter()
        .position(|(dir, text)| dir == "received" && (text.starts_with("MOVE;") || text == "SWAP"))
        .unwrap_or_else(|| panic!("the bot's move is in the transcript: {lines:#?}"));
    let end = lines
        .iter()
        .position(|(dir, text)| dir == "sent" && text == "END")
        .unwrap_or_else(|| panic!("END was sent: {lines:#?}"));
    assert!(
        reply < end,
        "the move to the turn comes before END: {lines:#?}"
    );
}

#[test]
fn a_line_after_end_is_output_after_end() {
    // kalah-move-after-end answers END with one more move.
    let bot = bot("kalah-move-after-end");
    let out = run_json(
        &[
            "--game",
            "kalah",
            "--filter",
            "abort-while-bot-to-move",
            &bot,
        ],
        &[],
    );
    assert_eq!(
        out.rules(),
        vec!["kalah.end.output-after-end".to_string()],
        "{}",
        out.messages()
    );
}
