fn main() -> std::process::ExitCode {
    // Before any thread starts: no child may inherit the token.
    hector::io::lichess::token::take_from_environment();
    let code = hector::cli::main();
    // A helper program whose thread was given up while it waited ends with hector.
    hector::io::child::end_all();
    // A closed console window waits for this before Windows ends hector.
    hector::io::platform::signals::closing_done();
    code
}
