//! `serve`'s observability settings (the metrics listener, the log format) and setting up
//! the log subscriber they choose. Its own `clap::Args`, flattened into `ServeArgs`.

use std::net::SocketAddr;

/// Metrics and logs: docs/operations.md, Metrics and Logs.
#[derive(clap::Args, Clone, Debug)]
pub struct ObservabilityArgs {
    /// Serve Prometheus metrics (`GET /metrics`) on this address, a listener of their own,
    /// never the public one (e.g. 127.0.0.1:9464; port 0 picks a free port, printed).
    /// Without it nothing is recorded.
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,
    /// How log lines are written on stderr: `text` for a person, `json` (one object a
    /// line) for a log collector.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// The shape of a log line.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// `LEVEL span{fields}: target: message fields`, colours only at a terminal.
    #[default]
    Text,
    /// One JSON object a line: `timestamp`, `level`, `message`, `target`, the event's fields,
    /// and `span`/`spans` with the request's or the worker's fields.
    Json,
}

/// Sets the process's log subscriber: stderr, filtered by `RUST_LOG` (default
/// `paylink=info,tower_http=info`), in `format`.
pub fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "paylink=info,tower_http=info".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs
            // Colours only for a person at a terminal, not in a log file or a collector.
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        // The event's fields at the top level beside `message`, as collectors expect.
        LogFormat::Json => logs.json().flatten_event(true).init(),
    }
}
