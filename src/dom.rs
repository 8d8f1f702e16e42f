//! The widget's view layer: DOM elements built by plain calls, kept current
//! by Leptos' reactive system (`reactive_graph`: signals, memos, owners).
//!
//! Why not `view!`: every distinct `view!` shape makes tachys instantiate its
//! own build/mount/rebuild/unmount code, and those per-type impls were about
//! a third of the widget's wasm (bench/widget-size). Here an element is made
//! by non-generic calls, and each dynamic part (attribute, class, text,
//! property, child region) is one `RenderEffect` running a boxed closure, so
//! a binding costs its closure body and nothing per type.
//!
//! Lifetimes follow Leptos' owners: an effect is stored in the owner current
//! when it is created and stops when that owner is cleaned up; a child
//! region's effect cleans up what its previous render created (nested
//! effects, memos, listeners) before it renders again. Listeners are looked
//! up in a table by number, so a listener whose owner is gone does nothing
//! (a `blur` fired while its element is being removed, say) instead of
//! calling a dropped closure.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use leptos::reactive::effect::RenderEffect;
use leptos::reactive::owner::Owner;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Event, Node};

thread_local! {
    /// The document (the widget never runs without one), looked up once:
    /// every node of every view is made from it.
    static DOC: Document = web_sys::window()
        .and_then(|w| w.document())
        .expect_throw("no document");
}

/// The document.
pub fn doc() -> Document {
    DOC.with(Document::clone)
}

/// An element under construction; every method returns it for chaining.
pub struct El(pub Element);

/// A new `<tag>`.
pub fn h(tag: &str) -> El {
    El(DOC.with(|d| d.create_element(tag)).expect_throw("element"))
}

/// Several nodes as one (a `DocumentFragment`), for views without a single root.
pub fn frag(nodes: Vec<Node>) -> Node {
    let f = DOC.with(Document::create_document_fragment);
    for n in nodes {
        let _ = f.append_child(&n);
    }
    f.into()
}

/// A text node.
pub fn text(s: &str) -> Node {
    DOC.with(|d| d.create_text_node(s)).into()
}

impl From<El> for Node {
    fn from(e: El) -> Node {
        e.0.into()
    }
}

/// What can be appended to an element.
pub trait Child {
    fn node(self) -> Option<Node>;
}

impl Child for Node {
    fn node(self) -> Option<Node> {
        Some(self)
    }
}
impl Child for El {
    fn node(self) -> Option<Node> {
        Some(self.0.into())
    }
}
impl Child for &str {
    fn node(self) -> Option<Node> {
        Some(text(self))
    }
}
impl Child for String {
    fn node(self) -> Option<Node> {
        Some(text(&self))
    }
}
impl<C: Child> Child for Option<C> {
    fn node(self) -> Option<Node> {
        self.and_then(Child::node)
    }
}

impl El {
    pub fn attr(self, name: &str, value: &str) -> El {
        let _ = self.0.set_attribute(name, value);
        self
    }

    /// `attr` when `value` is not empty.
    pub fn attr_opt(self, name: &str, value: &str) -> El {
        if value.is_empty() {
            self
        } else {
            self.attr(name, value)
        }
    }

    pub fn class(self, value: &str) -> El {
        self.attr("class", value)
    }

    pub fn id(self, value: &str) -> El {
        self.attr("id", value)
    }

    /// Appends a child (element, node, text; `None` appends nothing).
    pub fn c(self, child: impl Child) -> El {
        if let Some(n) = child.node() {
            let _ = self.0.append_child(&n);
        }
        self
    }

    /// Appends each child.
    pub fn cs(self, children: Vec<Node>) -> El {
        for n in children {
            let _ = self.0.append_child(&n);
        }
        self
    }

    /// Static markup built by `components::html` (escaped there).
    pub fn html(self, markup: &str) -> El {
        self.0.set_inner_html(markup);
        self
    }

    /// A listener, removed (made a no-op) with the current owner.
    pub fn on(self, event: &str, f: impl Fn(Event) + 'static) -> El {
        listen(&self.0, event, Rc::new(f));
        self
    }

    /// An attribute computed from signals; `None` removes it.
    pub fn dyn_attr(self, name: &'static str, f: impl Fn() -> Option<String> + 'static) -> El {
        let el = self.0.clone();
        effect(Box::new(move || match f() {
            Some(v) => {
                let _ = el.set_attribute(name, &v);
            }
            None => {
                let _ = el.remove_attribute(name);
            }
        }));
        self
    }

    /// `name="value"` while `on()` holds, absent otherwise.
    pub fn flag_attr(
        self,
        name: &'static str,
        value: &'static str,
        on: impl Fn() -> bool + 'static,
    ) -> El {
        self.dyn_attr(name, move || on().then(|| value.to_string()))
    }

    /// A text child computed from signals.
    pub fn dyn_text(self, f: impl Fn() -> String + 'static) -> El {
        let t = DOC.with(|d| d.create_text_node(""));
        let _ = self.0.append_child(&t);
        effect(Box::new(move || t.set_data(&f())));
        self
    }

    /// The `value` property (inputs, textareas), set only when it differs,
    /// so the caret of the field being typed in stays where it is.
    pub fn prop_value(self, f: impl Fn() -> String + 'static) -> El {
        let el: JsValue = self.0.clone().into();
        // A new control's value is "": an empty first value needs no call.
        let first = std::cell::Cell::new(true);
        effect(Box::new(move || {
            let v = f();
            if first.replace(false) && v.is_empty() {
                return;
            }
            let v = JsValue::from_str(&v);
            let key = JsValue::from_str("value");
            if js_sys::Reflect::get(&el, &key).ok().as_ref() != Some(&v) {
                let _ = js_sys::Reflect::set(&el, &key, &v);
            }
        }));
        self
    }

    /// The `checked` property of a checkbox.
    pub fn prop_checked(self, f: impl Fn() -> bool + 'static) -> El {
        let el: JsValue = self.0.clone().into();
        effect(Box::new(move || {
            let _ = js_sys::Reflect::set(&el, &JsValue::from_str("checked"), &f().into());
        }));
        self
    }

    pub fn into_node(self) -> Node {
        self.0.into()
    }
}

/// A view rendered by `f` in place (between two empty comments), rendered
/// again when what it reads changes; what the previous render created is
/// cleaned up first.
pub fn region(f: impl Fn() -> Option<Node> + 'static) -> Node {
    region_impl(Box::new(f))
}

fn region_impl(f: Box<dyn Fn() -> Option<Node>>) -> Node {
    let (holder, start, end) = DOC.with(|d| {
        let start: Node = d.create_comment("").into();
        let end: Node = d.create_comment("").into();
        (d.create_document_fragment(), start, end)
    });
    let _ = holder.append_child(&start);
    let _ = holder.append_child(&end);
    effect(Box::new(move || {
        let Some(parent) = end.parent_node() else {
            return;
        };
        while let Some(n) = start.next_sibling() {
            if n == end {
                break;
            }
            let _ = parent.remove_child(&n);
        }
        if let Some(n) = f() {
            let _ = parent.insert_before(&n, Some(&end));
        }
    }));
    holder.into()
}

/// Runs `f` now and whenever a signal it read changes, for as long as the
/// current owner lives (for bindings that update several nodes at once).
pub fn watch(f: impl Fn() + 'static) {
    effect(Box::new(f))
}

fn effect(f: Box<dyn Fn()>) {
    let e = RenderEffect::new(move |_| f());
    StoredValue::new_local(e);
}

/// An event handler, shared so it can be called while the table changes.
type Handler = Rc<dyn Fn(Event)>;

thread_local! {
    /// Live listeners by number; a removed one leaves `None`.
    static LISTENERS: RefCell<Vec<Option<Handler>>> = const { RefCell::new(Vec::new()) };
    /// The one JS function every element listener is bound from.
    static DISPATCH: js_sys::Function = Closure::<dyn Fn(u32, Event)>::new(dispatch)
        .into_js_value()
        .unchecked_into();
}

fn dispatch(key: u32, ev: Event) {
    // Cloned out of the table: the handler may add or remove listeners.
    let f = LISTENERS.with(|l| l.borrow().get(key as usize).cloned().flatten());
    if let Some(f) = f {
        f(ev);
    }
}

fn listen(target: &web_sys::EventTarget, event: &str, f: Handler) {
    let key = LISTENERS.with(|l| {
        let mut l = l.borrow_mut();
        // Reuse a free slot, so re-rendered screens do not grow the table.
        match l.iter().position(Option::is_none) {
            Some(i) => {
                l[i] = Some(f);
                i
            }
            None => {
                l.push(Some(f));
                l.len() - 1
            }
        }
    });
    let bound: js_sys::Function = DISPATCH
        .with(|d| d.bind1(&JsValue::NULL, &JsValue::from(key as u32)))
        .unchecked_into();
    let _ = target.add_event_listener_with_callback(event, &bound);
    let target = target.clone();
    let event = event.to_string();
    let remove = move || {
        LISTENERS.with(|l| {
            if let Some(slot) = l.borrow_mut().get_mut(key) {
                *slot = None;
            }
        });
        let _ = target.remove_event_listener_with_callback(&event, &bound);
    };
    // `on_cleanup` wants `Send`: the DOM handles are not, but the widget
    // runs on one thread only.
    on_cleanup(send_wrapper(Box::new(remove)));
}

/// How many listeners are live (for tests: re-rendered and unmounted views
/// must give theirs up).
pub fn live_listeners() -> usize {
    LISTENERS.with(|l| l.borrow().iter().filter(|f| f.is_some()).count())
}

/// A listener on `window` (or any target) for the current owner's lifetime.
pub fn listen_on(target: &web_sys::EventTarget, event: &str, f: impl Fn(Event) + 'static) {
    listen(target, event, Rc::new(f));
}

struct Local(Box<dyn FnOnce()>);
// SAFETY: wasm32 without threads: the widget has one thread, so nothing is
// ever sent to another one.
unsafe impl Send for Local {}
unsafe impl Sync for Local {}

fn send_wrapper(f: Box<dyn FnOnce()>) -> impl FnOnce() + Send + Sync + 'static {
    let l = Local(f);
    move || {
        let l = l;
        (l.0)()
    }
}

/// The value of the input, select or textarea an event came from.
pub fn target_value(ev: &Event) -> String {
    ev.target()
        .and_then(|t| js_sys::Reflect::get(&t, &JsValue::from_str("value")).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Whether the checkbox an event came from is checked.
pub fn target_checked(ev: &Event) -> bool {
    ev.target()
        .and_then(|t| js_sys::Reflect::get(&t, &JsValue::from_str("checked")).ok())
        .is_some_and(|v| v.is_truthy())
}

/// Mounts `view` at the end of `parent` under a new root owner. The app
/// lives until the returned owner is dropped (or forever, when forgotten).
pub fn mount(parent: &Element, view: impl FnOnce() -> Node) -> Owner {
    // Effects re-run on wasm-bindgen-futures' microtasks.
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let node = owner.with(view);
    let _ = parent.append_child(&node);
    owner
}
