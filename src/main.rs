//! Entry point of the browser bundle: mounts the widget on `<body>`.

// lol_alloc's free-list allocator instead of the default dlmalloc: the bundle is
// smaller (see bench/widget-size) and a form's few, short-lived allocations do not
// need dlmalloc's bins. The widget is single-threaded (wasm32 without atomics), which
// is what `AssumeSingleThreaded` requires.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

fn main() {
    leptos::mount::mount_to_body(paylink_widget::App);
}
