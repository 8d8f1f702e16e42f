//! Entry point of the browser bundle: mounts the widget on `<body>`.

fn main() {
    leptos::mount::mount_to_body(paylink_widget::App);
}
