//! `hostile-spam-qtp`: a QTP engine (the conforming shared engine) that, once
//! its input ends without `quit`, repeats its last response forever as fast as
//! it can, like the public engine giorgosnikolaou/Quoridor-Engine, whose read
//! loop ignores end-of-file and re-runs the last command.
//!
//! protocheck must end the `eof-without-quit` scenario with
//! `io.output-flood` (a bounded report, the bot killed) instead of recording
//! every repeated response.

use protocheck_sample_bots::quoridor as common;

fn main() {
    common::run("hostile-spam-qtp", common::Flaw::RepeatsAtEof)
}
