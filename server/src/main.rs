fn main() -> std::process::ExitCode {
    paylink_server::cli::main()
}
