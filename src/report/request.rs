//! `--report KIND[=PATH]`: which reports one run writes, and where. Every
//! report is rendered from the same results, so they cannot disagree. A
//! single run's kinds are [`Format`]; `match` and `tournament` take the
//! same form with kinds of their own.

use super::Format;
use std::path::{Path, PathBuf};

/// One report: its format, and its file (`None`: standard output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<F = Format> {
    pub format: F,
    pub path: Option<PathBuf>,
}

/// Why the reports asked for cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("`{0}=` names no file (write {0}=FILE, or {0} alone for standard output)")]
    NoFile(String),
    #[error("unknown report `{kind}`; the reports are {}", .kinds.join(", "))]
    UnknownKind { kind: String, kinds: Vec<String> },
    #[error(
        "more than one report goes to standard output: give all but one a file (--report KIND=FILE)"
    )]
    TwoOnStandardOutput,
    #[error("two reports would be written to {}: give each its own file", .0.display())]
    SameFile(PathBuf),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl<F: clap::ValueEnum> std::str::FromStr for Request<F> {
    type Err = RequestError;

    /// `json`, `json=out.json`, `html=report.html`.
    fn from_str(text: &str) -> Result<Request<F>, RequestError> {
        let (kind, path) = match text.split_once('=') {
            Some((kind, "")) => return Err(RequestError::NoFile(kind.to_string())),
            Some((kind, path)) => (kind, Some(PathBuf::from(path))),
            None => (text, None),
        };
        let format = F::from_str(kind, true).map_err(|_| RequestError::UnknownKind {
            kind: kind.to_string(),
            kinds: F::value_variants()
                .iter()
                .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_string()))
                .collect(),
        })?;
        Ok(Request { format, path })
    }
}

/// The reports of a run: the `--report`s, and `--format/--output` (the
/// older form, one report) when given; with neither, the human report on
/// standard output. Two reports to standard output would interleave, and
/// two to one file overwrite each other: both are refused.
pub fn plan(
    reports: &[Request],
    format: Option<Format>,
    output: Option<&Path>,
) -> Result<Vec<Request>, RequestError> {
    plan_or(reports, format, output, Format::Human)
}

/// [`plan`] for any kinds of report, `default` the one written without
/// `--report` or `--format`.
pub fn plan_or<F: Clone>(
    reports: &[Request<F>],
    format: Option<F>,
    output: Option<&Path>,
    default: F,
) -> Result<Vec<Request<F>>, RequestError> {
    let mut all = reports.to_vec();
    if format.is_some() || output.is_some() || all.is_empty() {
        all.push(Request {
            format: format.unwrap_or(default),
            path: output.map(PathBuf::from),
        });
    }
    if all.iter().filter(|r| r.path.is_none()).count() > 1 {
        return Err(RequestError::TwoOnStandardOutput);
    }
    for (i, r) in all.iter().enumerate() {
        if let Some(path) = &r.path
            && all[..i].iter().any(|o| o.path.as_ref() == Some(path))
        {
            return Err(RequestError::SameFile(path.clone()));
        }
    }
    Ok(all)
}

/// Each report rendered by `render` (given its kind and file) and written
/// to its file, or to standard output (a reader that went away is no
/// error: `super::stdout`).
pub fn write_all<F: Copy>(
    reports: &[Request<F>],
    mut render: impl FnMut(F, Option<&Path>) -> String,
) -> Result<(), RequestError> {
    for request in reports {
        let text = render(request.format, request.path.as_deref());
        match &request.path {
            Some(path) => std::fs::write(path, &text).map_err(|source| RequestError::Write {
                path: path.clone(),
                source,
            })?,
            None => super::stdout::emit(&text),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(text: &str) -> Result<Request, String> {
        text.parse().map_err(|e: RequestError| e.to_string())
    }

    #[test]
    fn request_errors_read_as_before_and_a_write_keeps_its_cause() {
        assert_eq!(
            plan(&[], Some(Format::Json), None).map(|_| ()).ok(),
            Some(())
        );
        let out = Request::<Format> {
            format: Format::Human,
            path: None,
        };
        assert_eq!(
            plan(std::slice::from_ref(&out), Some(Format::Json), None)
                .unwrap_err()
                .to_string(),
            "more than one report goes to standard output: give all but one a file (--report KIND=FILE)"
        );
        let missing = Request {
            format: Format::Human,
            path: Some(PathBuf::from("/no/such/protocheck/dir/r.txt")),
        };
        let e = write_all(&[missing], |_, _| String::new()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot write /no/such/protocheck/dir/r.txt: "),
            "{e}"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn a_kind_with_or_without_a_file() {
        assert_eq!(
            req("json=out/r.json").unwrap(),
            Request {
                format: Format::Json,
                path: Some("out/r.json".into())
            }
        );
        assert_eq!(req("human").unwrap().path, None);
        assert_eq!(req("JUnit=a=b.xml").unwrap().path, Some("a=b.xml".into()));
        let e = req("pdf=x").unwrap_err();
        assert!(
            e.contains("unknown report `pdf`") && e.contains("junit"),
            "{e}"
        );
        assert!(req("json=").unwrap_err().contains("names no file"));
    }

    #[test]
    fn the_older_form_joins_the_reports_and_human_is_the_default() {
        let human = Request {
            format: Format::Human,
            path: None,
        };
        assert_eq!(plan(&[], None, None).unwrap(), std::slice::from_ref(&human));
        let json = req("json=a.json").unwrap();
        assert_eq!(
            plan(std::slice::from_ref(&json), None, None).unwrap(),
            std::slice::from_ref(&json)
        );
        assert_eq!(
            plan(std::slice::from_ref(&json), Some(Format::Human), None).unwrap(),
            [json.clone(), human]
        );
        assert_eq!(
            plan(&[], Some(Format::Junit), Some("x.xml".as_ref())).unwrap(),
            [req("junit=x.xml").unwrap()]
        );
        assert!(plan(&[req("json").unwrap(), req("human").unwrap()], None, None).is_err());
        let e = plan(
            std::slice::from_ref(&json),
            Some(Format::Html),
            Some("a.json".as_ref()),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "two reports would be written to a.json: give each its own file"
        );
    }
}
