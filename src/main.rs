fn main() -> std::process::ExitCode {
    hector::cli::main()
}
