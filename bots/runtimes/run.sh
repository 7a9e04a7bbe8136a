#!/bin/sh
# A shell wrapper, as students submit one (a sample bot of bots/runtimes/):
# it goes to its own folder and runs the program beside it, here a copy of
# the Rust sample bot kalah-correct named `kalah-bot` (tests/sandbox_runtimes.rs
# puts it there).
#
# protocheck must report: nothing (pass), sandboxed or not.
cd "$(dirname "$0")" || exit 1
exec ./kalah-bot "$@"
