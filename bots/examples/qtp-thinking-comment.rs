//! `qtp-thinking-comment`: writes a `# thinking` line before each `genmove`
//! response; otherwise identical to `qtp-correct`.
//!
//! The referee skips engine lines starting with `#`; the document gives the
//! controller no rule to strip them from responses (quoridor.md §1.4,
//! decision 10), so each is a warning. The response itself is right, and
//! scripted `expect: {matches}` judge it as read, after the comment line.
//!
//! protocheck must report: `io.unexpected-output` (warn; fail with
//! `--strict`) and nothing else; in particular no `scenario.expect.matches`
//! on the forced-move scenarios.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("qtp-thinking-comment", common::Flaw::ThinkingComment)
}
