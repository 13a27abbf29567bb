// Checks of the language tables against de.toml, the reference: run by the build script
// (build.rs) on every file in assets/lang, and by the tests on broken tables. Plain functions
// on `toml::Table`, so that both can include this file.

/// Tables whose keys are free (a letter, a spelling, an opening family): not compared.
const FREE_TABLES: [&str; 3] = ["folding.letters", "folding.spellings", "openings.families"];

/// What is wrong with the tables (code, path), one line per problem.
fn check_tables(entries: &[(String, String)]) -> Vec<String> {
    let mut texts = Vec::new();
    let mut problems = Vec::new();
    for (code, path) in entries {
        match std::fs::read_to_string(path) {
            Ok(text) => texts.push((code.clone(), text)),
            Err(e) => problems.push(format!("{code}.toml cannot be read: {e}")),
        }
    }
    problems.extend(check_texts(&texts));
    problems
}

/// What is wrong with the tables (code, TOML text), one line per problem.
pub fn check_texts(texts: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for (code, text) in texts {
        match text.parse::<toml::Table>() {
            Ok(table) => parsed.push((code.clone(), table)),
            Err(e) => problems.push(format!("{code}.toml is not TOML: {e}")),
        }
    }
    let Some((_, reference)) = parsed.iter().find(|(code, _)| code == "de") else {
        problems.push("de.toml, the reference table, is missing".into());
        return problems;
    };
    for (code, table) in &parsed {
        compare(code, "", reference, table, &mut problems);
    }
    problems
}

/// Compares `table` (of language `code`) with the reference at `prefix`.
fn compare(
    code: &str,
    prefix: &str,
    reference: &toml::Table,
    table: &toml::Table,
    problems: &mut Vec<String>,
) {
    if FREE_TABLES.contains(&prefix.trim_end_matches('.')) {
        return;
    }
    for (key, expected) in reference {
        let name = format!("{prefix}{key}");
        let Some(found) = table.get(key) else {
            if !FREE_TABLES.contains(&name.as_str()) {
                problems.push(format!("{code}.toml lacks {name}"));
            }
            continue;
        };
        match (expected, found) {
            (toml::Value::Table(e), toml::Value::Table(f)) => {
                compare(code, &format!("{name}."), e, f, problems);
            }
            (e, f) if e.type_str() != f.type_str() => problems.push(format!(
                "{code}.toml: {name} is {}, de.toml has {}",
                f.type_str(),
                e.type_str()
            )),
            (e, f) => {
                let (want, have) = (placeholders(e), placeholders(f));
                for p in want.difference(&have) {
                    problems.push(format!("{code}.toml: {name} lacks {p}"));
                }
                for p in have.difference(&want) {
                    problems.push(format!("{code}.toml: {name} has {p}, which hector never fills"));
                }
            }
        }
    }
    for key in table.keys() {
        if !reference.contains_key(key) {
            problems.push(format!("{code}.toml has {prefix}{key}, which de.toml has not"));
        }
    }
}

/// The `{name}` placeholders in a value (a text or a list of texts).
fn placeholders(value: &toml::Value) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut texts = Vec::new();
    match value {
        toml::Value::String(s) => texts.push(s.as_str()),
        toml::Value::Array(items) => texts.extend(items.iter().filter_map(|i| i.as_str())),
        _ => {}
    }
    for text in texts {
        let mut rest = text;
        while let Some(start) = rest.find('{') {
            let after = &rest[start + 1..];
            match after.find('}') {
                Some(end)
                    if end > 0
                        && after[..end]
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_') =>
                {
                    out.insert(format!("{{{}}}", &after[..end]));
                    rest = &after[end + 1..];
                }
                _ => rest = after,
            }
        }
    }
    out
}
