//! `--pass-env NAME` and `--env NAME=VALUE`: what a user changes in the
//! bot's fixed environment (the policy itself is `transport::environment`,
//! described in docs/environment.md).
//! The same flags in a single run, `record`, `grade` (after `--`), `match`
//! and `tournament`, and as `pass-env`/`env` in protocheck.toml.

use crate::transport::environment::{self, EnvPolicy};

#[derive(Clone, Debug, Default, clap::Args)]
pub struct EnvFlags {
    /// Give the bot this variable of protocheck's environment, which the
    /// bot's fixed environment leaves out (PATH, HOME, the locale and
    /// toolchain locators come by default; CI tokens, PYTHONUNBUFFERED and
    /// the rest do not: docs/environment.md). `NAME*` gives every variable
    /// with that prefix, `*` all but the I/O switches (the environment
    /// before the fixed one). Repeat for more.
    #[arg(long = "pass-env", value_name = "NAME", value_parser = environment::parse_pass)]
    pub pass_env: Vec<String>,
    /// Set a variable in the bot's environment. Repeat for more.
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = environment::parse_setting)]
    pub env: Vec<(String, String)>,
}

impl EnvFlags {
    pub fn policy(&self) -> EnvPolicy {
        EnvPolicy {
            pass: self.pass_env.clone(),
            set: self.env.clone(),
        }
    }
}
