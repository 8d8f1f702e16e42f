//! A crate's sources read as a graph of files, and the counts of the server's shape.
//! Which file names which (every `crate::`, `super::` and `self::` path, `use` groups and
//! a module's `pub use` re-exports followed), the circles in that graph, the `Result<_, String>`
//! outside tests and the error type names defined more than once. `layers.rs` asserts on them;
//! `scripts/shape` compiles this file alone (`rustc --cfg shape_main`) and prints them beside
//! their targets, so the numbers and the tests come from one reading.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its path under `src/`, its module path (`proxy::links`; `[]` for the
/// crate's root) and its code without comments, cut at its first `#[cfg(test)]`.
pub struct File {
    pub rel: String,
    pub module: Vec<String>,
    pub code: Vec<(usize, String)>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The line without its `//` comment (one outside a string: an even count of quotes before it).
fn strip_comment(line: &str) -> &str {
    let mut quotes = 0;
    let bytes = line.as_bytes();
    for i in 0..bytes.len() {
        match bytes[i] {
            b'"' if i == 0 || bytes[i - 1] != b'\\' => quotes += 1,
            b'/' if quotes % 2 == 0 && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Every `.rs` file under `src`, with its code up to its tests.
pub fn read_crate(src: &Path) -> Vec<File> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    paths
        .iter()
        .map(|path| {
            let rel = path.strip_prefix(src).unwrap();
            let mut module: Vec<String> = rel
                .components()
                .map(|c| {
                    c.as_os_str()
                        .to_str()
                        .unwrap()
                        .trim_end_matches(".rs")
                        .to_string()
                })
                .collect();
            let last = module.last().map(String::as_str);
            if last == Some("mod") || (module.len() == 1 && matches!(last, Some("lib" | "main"))) {
                module.pop();
            }
            let text = std::fs::read_to_string(path).unwrap();
            let code = text
                .lines()
                .enumerate()
                .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
                .map(|(n, l)| (n + 1, strip_comment(l).to_string()))
                .collect();
            File {
                rel: rel.display().to_string(),
                module,
                code,
            }
        })
        .collect()
}

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Colons,
    Open,
    Close,
    Comma,
    Star,
    Other,
}

fn tokens(file: &File) -> Vec<(usize, Tok)> {
    let mut out = Vec::new();
    for (n, line) in &file.code {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_alphanumeric() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push((*n, Tok::Ident(chars[start..i].iter().collect())));
                continue;
            }
            let tok = match c {
                ':' if chars.get(i + 1) == Some(&':') => {
                    i += 1;
                    Tok::Colons
                }
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                '*' => Tok::Star,
                c if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => Tok::Other,
            };
            out.push((*n, tok));
            i += 1;
        }
    }
    out
}

/// The paths that start at `toks[*pos]`, `use` groups expanded: `a::{b, c::d}` is `a::b`
/// and `a::c::d`; a glob ends its path with `*`.
fn paths_at(
    toks: &[(usize, Tok)],
    pos: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    let mut cur = prefix;
    loop {
        match toks.get(*pos).map(|t| &t.1) {
            Some(Tok::Ident(name)) => {
                cur.push(name.clone());
                *pos += 1;
            }
            Some(Tok::Star) => {
                cur.push("*".into());
                *pos += 1;
                out.push(cur);
                return;
            }
            Some(Tok::Open) => {
                *pos += 1;
                let mut depth_end = false;
                while !depth_end {
                    paths_at(toks, pos, cur.clone(), out);
                    // Skip what follows an item (`as name`) up to its comma or the group's end.
                    loop {
                        match toks.get(*pos).map(|t| &t.1) {
                            Some(Tok::Comma) => {
                                *pos += 1;
                                if toks.get(*pos).map(|t| &t.1) == Some(&Tok::Close) {
                                    *pos += 1;
                                    depth_end = true;
                                }
                                break;
                            }
                            Some(Tok::Close) | None => {
                                *pos += 1;
                                depth_end = true;
                                break;
                            }
                            _ => *pos += 1,
                        }
                    }
                }
                return;
            }
            _ => {
                out.push(cur);
                return;
            }
        }
        if toks.get(*pos).map(|t| &t.1) == Some(&Tok::Colons) {
            *pos += 1;
        } else {
            out.push(cur);
            return;
        }
    }
}

/// The absolute module path a path written in `module` names (`crate::`, `super::`, `self::`
/// resolved; a path without them is a child of `module`, as in a `pub use`).
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    let mut at: Vec<String> = module.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &path[1..];
        }
        Some("self") => rest = &path[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                at.pop();
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    at.extend(rest.iter().filter(|s| *s != "self").cloned());
    at
}

/// Which file names which: the crate's modules as nodes, an edge for every path from one file
/// to another, each with where it is written. A file's own ancestors and descendants are not
/// edges: a `mod.rs` declares and routes to its children and they take its shared items
/// through `super::`, which is one module's inside, not a circle.
pub struct Graph {
    pub edges: BTreeMap<String, BTreeMap<String, String>>,
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() <= b.len() && a == &b[..a.len()]
}

pub fn graph(files: &[File]) -> Graph {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let longest = |path: &[String]| -> (Vec<String>, Vec<String>) {
        let mut n = path.len();
        while n > 0 && !modules.contains(&path[..n]) {
            n -= 1;
        }
        (path[..n].to_vec(), path[n..].to_vec())
    };
    // What each module defines, for the globs it is re-exported by.
    let mut defines: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    let mut all_toks = Vec::new();
    for f in files {
        let toks = tokens(f);
        let set = defines.entry(f.module.clone()).or_default();
        for w in toks.windows(2) {
            if let (Tok::Ident(kw), Tok::Ident(item)) = (&w[0].1, &w[1].1) {
                if matches!(
                    kw.as_str(),
                    "struct" | "enum" | "fn" | "const" | "static" | "trait" | "type"
                ) {
                    set.insert(item.clone());
                }
            }
        }
        all_toks.push(toks);
    }
    // Re-exports: (module, name) → the module that defines it; (module, "*") → glob sources.
    let mut reexports: BTreeMap<(Vec<String>, String), BTreeSet<Vec<String>>> = BTreeMap::new();
    for (f, toks) in files.iter().zip(&all_toks) {
        for i in 0..toks.len() {
            if toks[i].1 != Tok::Ident("use".into()) {
                continue;
            }
            let public = (i >= 1 && toks[i - 1].1 == Tok::Ident("pub".into()))
                || (i >= 4 && toks[i - 4].1 == Tok::Ident("pub".into()));
            if !public {
                continue;
            }
            let mut pos = i + 1;
            let mut paths = Vec::new();
            paths_at(toks, &mut pos, Vec::new(), &mut paths);
            for p in paths {
                let Some(last) = p.last().cloned() else {
                    continue;
                };
                let abs = absolute(&f.module, &p[..p.len() - 1]);
                let (target, _) = longest(&abs);
                if target != f.module {
                    reexports
                        .entry((f.module.clone(), last))
                        .or_default()
                        .insert(target);
                }
            }
        }
    }
    let resolve = |path: &[String]| -> Vec<String> {
        let (target, rest) = longest(path);
        let Some(first) = rest.first() else {
            return target;
        };
        if let Some(t) = reexports.get(&(target.clone(), first.clone())) {
            if let Some(t) = t.iter().next() {
                return t.clone();
            }
        }
        if let Some(globs) = reexports.get(&(target.clone(), "*".into())) {
            if let Some(t) = globs
                .iter()
                .find(|g| defines.get(*g).is_some_and(|d| d.contains(first)))
            {
                return t.clone();
            }
        }
        target
    };
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (f, toks) in files.iter().zip(&all_toks) {
        edges.entry(name(&f.module)).or_default();
        for i in 0..toks.len() {
            let Tok::Ident(word) = &toks[i].1 else {
                continue;
            };
            let starts = matches!(word.as_str(), "crate" | "super" | "self")
                && toks.get(i + 1).map(|t| &t.1) == Some(&Tok::Colons)
                && (i == 0 || toks[i - 1].1 != Tok::Colons);
            if !starts {
                continue;
            }
            let mut pos = i;
            let mut paths = Vec::new();
            paths_at(toks, &mut pos, Vec::new(), &mut paths);
            for p in paths {
                let target = resolve(&absolute(&f.module, &p));
                if is_prefix(&target, &f.module) || is_prefix(&f.module, &target) {
                    continue;
                }
                edges
                    .entry(name(&f.module))
                    .or_default()
                    .entry(name(&target))
                    .or_insert_with(|| format!("src/{}:{}: {}", f.rel, toks[i].0, p.join("::")));
            }
        }
    }
    Graph { edges }
}

impl Graph {
    /// The shortest loop among `members`, as its edges with where each is written.
    fn shortest_cycle(&self, members: &BTreeSet<String>) -> Vec<String> {
        let mut best: Option<Vec<String>> = None;
        for start in members {
            // Breadth first from `start` back to it, inside the circle.
            let mut came_from: BTreeMap<String, String> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start.clone()]);
            let mut closed_by = None;
            while let Some(m) = queue.pop_front() {
                for next in self.edges[&m].keys().filter(|n| members.contains(*n)) {
                    if next == start {
                        closed_by = Some(m.clone());
                        break;
                    }
                    if !came_from.contains_key(next) {
                        came_from.insert(next.clone(), m.clone());
                        queue.push_back(next.clone());
                    }
                }
                if closed_by.is_some() {
                    break;
                }
            }
            let Some(last) = closed_by else { continue };
            let mut path = vec![start.clone(), last.clone()];
            let mut at = last;
            while at != *start {
                at = came_from[&at].clone();
                path.push(at.clone());
            }
            path.reverse();
            if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                best = Some(path);
            }
        }
        let path = best.unwrap_or_default();
        path.windows(2)
            .map(|w| format!("{} → {} ({})", w[0], w[1], self.edges[&w[0]][&w[1]]))
            .collect()
    }

    /// The circles: every set of two or more files each of which reaches the others,
    /// each with its shortest loop.
    pub fn circles(&self) -> Vec<(BTreeSet<String>, Vec<String>)> {
        let reach = |from: &String| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.clone()];
            while let Some(m) = todo.pop() {
                for next in self.edges.get(&m).into_iter().flat_map(|e| e.keys()) {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&String, BTreeSet<String>> =
            self.edges.keys().map(|m| (m, reach(m))).collect();
        let mut done = BTreeSet::new();
        let mut out = Vec::new();
        for m in self.edges.keys() {
            if done.contains(m) || !reaches[m].contains(m) {
                continue;
            }
            let members: BTreeSet<String> = reaches[m]
                .iter()
                .filter(|n| reaches[*n].contains(m))
                .cloned()
                .collect();
            let evidence = self.shortest_cycle(&members);
            done.extend(members.iter().cloned());
            out.push((members, evidence));
        }
        out
    }
}

/// Each `Result<_, String>` outside tests (files named `tests.rs` and what follows a
/// `#[cfg(test)]`), as `src/file:line`. Signatures split over lines are read joined.
pub fn string_errors(files: &[File]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| !f.rel.ends_with("tests.rs")) {
        let mut text = String::new();
        let mut line_at = Vec::new();
        for (n, l) in &f.code {
            for _ in l.chars().chain(std::iter::once(' ')) {
                line_at.push(*n);
            }
            text.push_str(l);
            text.push(' ');
        }
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i + 7 <= chars.len() {
            let here: String = chars[i..i + 7].iter().collect();
            let word_start = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
            if here != "Result<" || !word_start {
                i += 1;
                continue;
            }
            // The arguments at depth 1, up to the closing `>` (a trailing comma allowed).
            let (mut depth, mut j, mut args, mut from) = (1, i + 7, Vec::new(), i + 7);
            while j < chars.len() && depth > 0 {
                match chars[j] {
                    '<' | '(' | '[' => depth += 1,
                    '>' if chars[j - 1] != '-' => depth -= 1,
                    ')' | ']' => depth -= 1,
                    ',' if depth == 1 => {
                        args.push(chars[from..j].iter().collect::<String>());
                        from = j + 1;
                    }
                    _ => {}
                }
                j += 1;
            }
            args.push(chars[from..j.saturating_sub(1).max(from)].iter().collect());
            let args: Vec<&str> = args
                .iter()
                .map(|a| a.trim())
                .filter(|a| !a.is_empty())
                .collect();
            if args.len() == 2 && args[1] == "String" {
                out.push(format!("src/{}:{}", f.rel, line_at[i]));
            }
            i += 7;
        }
    }
    out
}

/// The error types: a type whose name ends in `Error`, or that derives or implements
/// `Error`. Each name with where it is defined.
pub fn error_types(files: &[File]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files {
        let toks = tokens(f);
        let mut implemented = BTreeSet::new();
        let mut derived_error = false;
        for (i, (_, t)) in toks.iter().enumerate() {
            let Tok::Ident(word) = t else { continue };
            if word == "derive" {
                // `#[derive(A, thiserror::Error)]`: the list runs from past `(` to `)`.
                derived_error = false;
                let mut k = i + 2;
                while k < toks.len() && toks[k].1 != Tok::Other {
                    derived_error |= toks[k].1 == Tok::Ident("Error".into());
                    k += 1;
                }
            }
            // `impl std::error::Error for Name`, `impl Error for Name`
            if word == "for" && i >= 1 && toks[i - 1].1 == Tok::Ident("Error".into()) {
                if let Some((_, Tok::Ident(ty))) = toks.get(i + 1) {
                    implemented.insert(ty.clone());
                }
            }
            if matches!(word.as_str(), "struct" | "enum") {
                if let Some((n, Tok::Ident(ty))) = toks.get(i + 1) {
                    if ty.ends_with("Error") || derived_error {
                        out.entry(ty.clone())
                            .or_default()
                            .push(format!("src/{}:{n}", f.rel));
                    }
                }
                derived_error = false;
            }
        }
        for ty in implemented {
            let entry = out.entry(ty.clone()).or_default();
            if !entry
                .iter()
                .any(|at| at.starts_with(&format!("src/{}:", f.rel)))
            {
                entry.push(format!("src/{} (impl Error)", f.rel));
            }
        }
    }
    out
}

/// The names defined more than once (in one crate or across the ones given).
pub fn twice(types: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    types
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect()
}

/// Lines of every file under `dir`.
#[cfg_attr(not(shape_main), allow(dead_code))]
pub fn lines_under(dir: &Path) -> usize {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().lines().count())
        .sum()
}

#[cfg(shape_main)]
fn main() {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let server = read_crate(&root.join("server/src"));
    let model = read_crate(&root.join("model/src"));
    let proxy = lines_under(&root.join("server/src/proxy"));
    let strings: Vec<String> = string_errors(&server)
        .into_iter()
        .map(|s| format!("server/{s}"))
        .chain(
            string_errors(&model)
                .into_iter()
                .map(|s| format!("model/{s}")),
        )
        .collect();
    let mut circles = Vec::new();
    for (krate, files) in [("server", &server), ("model", &model)] {
        for (members, edges) in graph(files).circles() {
            let list: Vec<&str> = members.iter().map(String::as_str).collect();
            circles.push(format!(
                "{krate}: {}\n    {}",
                list.join(" ↔ "),
                edges.join("\n    ")
            ));
        }
    }
    let mut types = error_types(&server);
    for (name, at) in error_types(&model) {
        types
            .entry(name)
            .or_default()
            .extend(at.into_iter().map(|a| format!("model/{a}")));
    }
    let twice = twice(&types);
    let row = |what: &str, n: usize, target: &str, ok: bool| {
        println!(
            "{what:<44} {n:>5}   target {target:<6} {}",
            if ok { "ok" } else { "NOT YET" }
        );
    };
    row("lines of server/src/proxy/", proxy, "< 900", proxy < 900);
    row(
        "Result<_, String> outside tests",
        strings.len(),
        "0",
        strings.is_empty(),
    );
    row(
        "circles between files (server, model)",
        circles.len(),
        "0",
        circles.is_empty(),
    );
    row(
        "error type names defined more than once",
        twice.len(),
        "0",
        twice.is_empty(),
    );
    for (title, list) in [
        ("Result<_, String>", &strings),
        ("circles", &circles),
        ("names twice", &twice),
    ] {
        if !list.is_empty() {
            println!("\n{title}:");
            for l in list {
                println!("  {l}");
            }
        }
    }
}
