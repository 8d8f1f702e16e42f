//! Markup for the widget's static content (tables, facts, the payer's
//! how-to-pay): written as one string and set as an element's `inner_html`,
//! instead of typed `view!` code for every shape (bench/widget-size). Every
//! text and attribute value goes through [`escape_into`].

/// Appends `s` escaped for HTML text and double-quoted attribute values:
/// cells carry what the server or the merchant wrote (webhook URLs,
/// descriptions), which must never become markup.
pub fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `<tag attr="value"…>` for the attributes that are not empty.
pub fn open(out: &mut String, tag: &str, attrs: &[(&str, &str)]) {
    out.push('<');
    out.push_str(tag);
    for (name, value) in attrs {
        if !value.is_empty() {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape_into(out, value);
            out.push('"');
        }
    }
    out.push('>');
}

pub fn close(out: &mut String, tag: &str) {
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

/// `<tag attrs…>text</tag>`, the text escaped.
pub fn leaf(out: &mut String, tag: &str, attrs: &[(&str, &str)], text: &str) {
    open(out, tag, attrs);
    escape_into(out, text);
    close(out, tag);
}
