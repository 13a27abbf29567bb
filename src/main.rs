fn main() -> std::process::ExitCode {
    let code = hector::cli::main();
    // A helper program whose thread was given up while it waited ends with hector.
    hector::io::child::end_all();
    code
}
