//! One configuration for every command: each setting of `serve` (and `--db` of every
//! command) is a flag, a `PAYLINK_<NAME>` variable or a key of the TOML file named by
//! `--config FILE` / `PAYLINK_CONFIG`, in that order of precedence, then its default.
//!
//! Built on clap alone (its `env` feature) and the `toml` crate rather than figment or
//! config: clap already parses, checks and documents every setting, and both of those
//! would need each setting declared a second time as a serde struct. Here every argument
//! of `serve` is given its variable by name (`--public-url` → `PAYLINK_PUBLIC_URL`), and a
//! file's value becomes the argument's default, so clap's own order (command line, then
//! variable, then default) is the whole precedence, and `ArgMatches::value_source` tells
//! each value's origin. A new flag needs nothing here.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgAction, Command};

/// A setting refused before anything starts: each variant names the setting (its flag, or
/// the file's key) and the kind of problem, and its words never carry a secret's value. The
/// settings' own parsers (`domain::smtp`, the notifications', the webhooks' proxy, the
/// bank's client) keep their own typed refusals.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A setting given without one it goes with (or without its value at all).
    #[error("{setting} needs {needs}")]
    Needs {
        setting: &'static str,
        needs: &'static str,
    },
    /// A value not of the setting's form; `expected` says the form.
    #[error("{setting} {value:?} is not {expected}")]
    Malformed {
        setting: &'static str,
        value: String,
        expected: &'static str,
    },
    /// A value of the right kind that the setting does not allow here.
    #[error("{setting} {value:?} must be {expected}")]
    Disallowed {
        setting: &'static str,
        value: String,
        expected: &'static str,
    },
    /// A URL that does not parse.
    #[error("{setting} {value:?}: {source}")]
    BadUrl {
        setting: &'static str,
        value: String,
        source: url::ParseError,
    },
    /// A value outside the setting's few choices.
    #[error("{setting} must be {expected}, not {value:?}")]
    NotAChoice {
        setting: &'static str,
        value: String,
        expected: &'static str,
    },
    /// One item of a list setting not among its choices.
    #[error("{setting}: {value:?} is not {expected}")]
    BadItem {
        setting: &'static str,
        value: String,
        expected: &'static str,
    },
    /// A number of a fixed count of digits.
    #[error("{setting} must be {digits} digits")]
    Digits {
        setting: &'static str,
        digits: usize,
    },
    /// `--workers`: a name that is no worker's.
    #[error("unknown worker {name:?}: all, none, or a comma list of {known}")]
    UnknownWorker { name: String, known: String },
    /// `--workers`: a worker listed twice.
    #[error("worker {name:?} is named twice")]
    WorkerTwice { name: String },
    /// Outside `--sandbox`, settings payers would see that have no value (the sandbox shows
    /// demo values in their place): their long names.
    #[error(
        "not in --sandbox, and payers would see settings that have no value: set {} \
         (or say what you offer with --payment-types; --sandbox shows demo values, for tests only)",
        listed(missing)
    )]
    DemoValues { missing: Vec<&'static str> },
    /// Listening beyond loopback without `--public-url`, outside the sandbox.
    #[error(
        "listening on {addr}, beyond loopback, needs --public-url https://… \
         (PAYLINK_PUBLIC_URL): the address payers' browsers use"
    )]
    PublicUrlMissing { addr: std::net::SocketAddr },
    /// A file a setting names (a secret's, a certificate's) that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A secret's file with no line in it.
    #[error("{} is empty", path.display())]
    EmptyFile { path: PathBuf },
    /// The configuration file cannot be read.
    #[error("cannot read the configuration {}: {source}", path.display())]
    FileUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The configuration file's refusal, said with the file's name.
    #[error("configuration {}: {source}", path.display())]
    InFile {
        path: PathBuf,
        source: Box<ConfigError>,
    },
    /// The file is not TOML: toml's own words (without its line and caret).
    #[error("{0}")]
    Toml(String),
    /// A file's key whose value is neither a scalar nor a list of them.
    #[error("`{key}` must be a string, a number, a boolean or a list of them")]
    NotScalar { key: String },
    /// A secret in the file: it is taken from its variable (or a `--…-file`) only.
    #[error(
        "{}: `{key}` is a secret: give it as {} (or --{key}-file), not in a file",
        file_of(file),
        variable_of(key)
    )]
    SecretInFile { file: Option<PathBuf>, key: String },
    /// `db` in the file with a password in its URL.
    #[error(
        "{}: `db` holds a password: give the URL as PAYLINK_DB, not in a file",
        file_of(file)
    )]
    PasswordInFile { file: Option<PathBuf> },
    /// A key of the file that is no setting.
    #[error(
        "{}: unknown setting `{key}` (see `paylink serve --help` or docs/operations.md)",
        file_of(file)
    )]
    UnknownKey { file: Option<PathBuf>, key: String },
    #[error(transparent)]
    Smtp(#[from] crate::domain::smtp::SmtpError),
    #[error(transparent)]
    Notify(#[from] crate::workers::notifications::NotifyConfigError),
    #[error(transparent)]
    Proxy(#[from] crate::domain::outbound::BadProxy),
    #[error(transparent)]
    Bank(#[from] crate::bank::ClientError),
}

/// Missing settings as the refusal lists them: `--merchant-name (PAYLINK_MERCHANT_NAME), …`.
fn listed(missing: &[&'static str]) -> String {
    let list: Vec<String> = missing
        .iter()
        .map(|long| format!("--{long} ({})", variable_of(long)))
        .collect();
    list.join(", ")
}

/// How a refusal of the file's keys names the file.
fn file_of(path: &Option<PathBuf>) -> String {
    path.as_ref().map_or_else(
        || "configuration".into(),
        |p| format!("configuration {}", p.display()),
    )
}

/// The variable that names the configuration file, as `--config` does.
pub const CONFIG_ENV: &str = "PAYLINK_CONFIG";

/// Settings that are secrets: taken from a variable only, never from a flag or the file
/// (a flag shows in `ps`, a file is copied around), and never printed.
pub const SECRET_SETTINGS: &[&str] = &["token"];

/// The variable of a flag's long name: `public-url` → `PAYLINK_PUBLIC_URL`.
pub fn variable_of(long: &str) -> String {
    format!("PAYLINK_{}", long.replace('-', "_").to_ascii_uppercase())
}

/// Where an effective value came from, as `config check` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Flag,
    Variable,
    File,
    Default,
    Unset,
}

impl Origin {
    pub fn word(self) -> &'static str {
        match self {
            Origin::Flag => "flag",
            Origin::Variable => "variable",
            Origin::File => "file",
            Origin::Default => "default",
            Origin::Unset => "not set",
        }
    }
}

/// The configuration file as read: each key (a flag's long name, sections flattened as
/// `section-key`) and its values as text, ready to be an argument's default.
#[derive(Debug, Default, Clone)]
pub struct FileSettings {
    pub path: Option<PathBuf>,
    values: BTreeMap<String, Vec<String>>,
}

impl FileSettings {
    /// The file named by `--config` in `args` (up to a `--`) or by `PAYLINK_CONFIG`; none
    /// when neither names one.
    pub fn locate(args: &[OsString]) -> Result<FileSettings, ConfigError> {
        let mut path = None;
        let mut it = args.iter().skip(1);
        while let Some(a) = it.next() {
            let a = a.to_string_lossy();
            if a == "--" {
                break;
            }
            if a == "--config" {
                let file = it.next().ok_or(ConfigError::Needs {
                    setting: "--config",
                    needs: "a file",
                })?;
                path = Some(PathBuf::from(file));
            } else if let Some(file) = a.strip_prefix("--config=") {
                path = Some(PathBuf::from(file));
            }
        }
        let path = path.or_else(|| {
            std::env::var_os(CONFIG_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        match path {
            None => Ok(FileSettings::default()),
            Some(p) => FileSettings::read(&p),
        }
    }

    /// Reads and parses `path`; a file that cannot be read or is not TOML names itself.
    pub fn read(path: &Path) -> Result<FileSettings, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::FileUnreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let mut settings = FileSettings::parse(&text).map_err(|e| ConfigError::InFile {
            path: path.to_path_buf(),
            source: Box::new(e),
        })?;
        settings.path = Some(path.to_path_buf());
        Ok(settings)
    }

    /// The settings of a TOML text: `public-url = "https://…"`, a section's keys prefixed
    /// by its name (`[pix]` `api-url` is `pix-api-url`).
    pub fn parse(text: &str) -> Result<FileSettings, ConfigError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            // toml's message carries the line and a caret; one line is enough here.
            ConfigError::Toml(e.message().to_string())
        })?;
        let mut values = BTreeMap::new();
        flatten("", &table, &mut values)?;
        Ok(FileSettings { path: None, values })
    }

    /// Every key not in `known` (the flags' long names) refused, naming it.
    pub fn check_keys(&self, known: &BTreeSet<String>) -> Result<(), ConfigError> {
        let file = || self.path.clone();
        for key in self.values.keys() {
            if SECRET_SETTINGS.contains(&key.as_str()) {
                return Err(ConfigError::SecretInFile {
                    file: file(),
                    key: key.clone(),
                });
            }
            // A database URL's password is a secret too: PAYLINK_DB keeps it out of files.
            let with_password =
                |v: &String| reqwest::Url::parse(v).is_ok_and(|u| u.password().is_some());
            if key == "db" && self.values[key].iter().any(with_password) {
                return Err(ConfigError::PasswordInFile { file: file() });
            }
            if !known.contains(key) {
                return Err(ConfigError::UnknownKey {
                    file: file(),
                    key: key.clone(),
                });
            }
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<&[String]> {
        self.values.get(key).map(Vec::as_slice)
    }
}

/// `table`'s keys as flag names under `prefix`, each value as text.
fn flatten(
    prefix: &str,
    table: &toml::Table,
    out: &mut BTreeMap<String, Vec<String>>,
) -> Result<(), ConfigError> {
    for (key, value) in table {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}-{key}")
        };
        let scalar = |v: &toml::Value| -> Result<String, ConfigError> {
            match v {
                toml::Value::String(s) => Ok(s.clone()),
                toml::Value::Integer(i) => Ok(i.to_string()),
                toml::Value::Boolean(b) => Ok(b.to_string()),
                toml::Value::Float(f) => Ok(f.to_string()),
                _ => Err(ConfigError::NotScalar { key: name.clone() }),
            }
        };
        match value {
            toml::Value::Table(inner) => flatten(&name, inner, out)?,
            toml::Value::Array(items) => {
                let items = items.iter().map(scalar).collect::<Result<Vec<_>, _>>()?;
                out.insert(name, items);
            }
            other => {
                out.insert(name.clone(), vec![scalar(other)?]);
            }
        }
    }
    Ok(())
}

/// Whether an argument's long name is a setting (not `--help`, `--version`, `--config`).
fn is_setting(long: &str) -> bool {
    !matches!(long, "help" | "version" | "config")
}

/// The long names of the settings `command` takes.
pub fn settings_of(command: &Command) -> BTreeSet<String> {
    command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| is_setting(l))
        .map(str::to_string)
        .collect()
}

/// `command`'s arguments that are settings (`only`: every one, or just those named) given
/// their variable, and the file's value as their default.
pub fn apply(
    mut command: Command,
    only: Option<&BTreeSet<String>>,
    file: &FileSettings,
) -> Command {
    let ids: Vec<(String, String)> = command
        .get_arguments()
        .filter_map(|a| Some((a.get_id().to_string(), a.get_long()?.to_string())))
        .filter(|(_, long)| is_setting(long))
        .filter(|(_, long)| only.is_none_or(|set| set.contains(long)))
        .collect();
    for (id, long) in ids {
        let from_file = file.get(&long).map(<[String]>::to_vec);
        command = command.mut_arg(id, move |arg| {
            let action = arg.get_action().clone();
            let mut arg = arg.env(variable_of(&long)).hide_env_values(true);
            match action {
                // A switch reads true/false, yes/no, 1/0 from its variable or the file.
                ArgAction::SetTrue => {
                    arg = arg.value_parser(clap::builder::BoolishValueParser::new());
                }
                // A list in one variable is comma-separated (origins, payment types).
                ArgAction::Append => arg = arg.value_delimiter(','),
                _ => {}
            }
            match from_file {
                Some(values) if values.len() == 1 => arg.default_value(values[0].clone()),
                Some(values) => arg.default_values(values),
                None => arg,
            }
        });
    }
    command
}

/// Each setting of `command` as parsed into `matches`: its long name, its value as text
/// (secrets masked, a database URL's password hidden) and its origin.
pub fn effective(
    command: &Command,
    matches: &clap::ArgMatches,
    file: &FileSettings,
) -> Vec<(String, String, Origin)> {
    let mut rows = Vec::new();
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long().filter(|l| is_setting(l)) else {
            continue;
        };
        let id = arg.get_id().as_str();
        let raw: Vec<String> = matches
            .get_raw(id)
            .map(|vals| vals.map(|v| v.to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        let origin = match matches.value_source(id) {
            Some(ValueSource::CommandLine) => Origin::Flag,
            Some(ValueSource::EnvVariable) => Origin::Variable,
            Some(ValueSource::DefaultValue) if file.get(long).is_some() => Origin::File,
            Some(ValueSource::DefaultValue) => Origin::Default,
            _ => Origin::Unset,
        };
        let value = if raw.is_empty() {
            String::new()
        } else if SECRET_SETTINGS.contains(&long) {
            "********".into()
        } else {
            raw.iter()
                .map(|v| crate::store::redacted(v))
                .collect::<Vec<_>>()
                .join(",")
        };
        rows.push((long.to_string(), value, origin));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_the_flags_in_upper_snake_case() {
        assert_eq!(variable_of("public-url"), "PAYLINK_PUBLIC_URL");
        assert_eq!(variable_of("db"), "PAYLINK_DB");
    }

    #[test]
    fn sections_flatten_into_flag_names() {
        let f = FileSettings::parse(
            "public-url = \"https://pay.loja.example\"\nsandbox = true\npayer-rate-limit = 60\n\
             allowed-origin = [\"https://a.example\", \"https://b.example\"]\n[pix]\napi-url = \"https://bank\"\n",
        )
        .unwrap();
        assert_eq!(
            f.get("public-url"),
            Some(&["https://pay.loja.example".to_string()][..])
        );
        assert_eq!(f.get("sandbox"), Some(&["true".to_string()][..]));
        assert_eq!(f.get("payer-rate-limit"), Some(&["60".to_string()][..]));
        assert_eq!(
            f.get("pix-api-url"),
            Some(&["https://bank".to_string()][..])
        );
        assert_eq!(f.get("allowed-origin").map(<[String]>::len), Some(2));
    }

    #[test]
    fn a_bad_file_says_why() {
        assert!(FileSettings::parse("public-url = ").is_err());
        let err = FileSettings::parse("when = 2027-01-01")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`when`"), "{err}");
        let known: BTreeSet<String> = ["listen".to_string()].into();
        let f = FileSettings::parse("lisen = \"x\"").unwrap();
        let err = f.check_keys(&known).unwrap_err().to_string();
        assert!(err.contains("unknown setting `lisen`"), "{err}");
        let f = FileSettings::parse("token = \"x\"").unwrap();
        let err = f.check_keys(&known).unwrap_err().to_string();
        assert!(err.contains("PAYLINK_TOKEN"), "{err}");
        let known: BTreeSet<String> = ["db".to_string()].into();
        let f = FileSettings::parse("db = \"postgres://paylink:senha@db/paylink\"").unwrap();
        let err = f.check_keys(&known).unwrap_err().to_string();
        assert!(
            err.contains("PAYLINK_DB") && !err.contains("senha"),
            "{err}"
        );
        let f = FileSettings::parse("db = \"postgres://paylink@db/paylink\"").unwrap();
        assert!(f.check_keys(&known).is_ok());
    }
}
