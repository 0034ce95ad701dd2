//! What the web page gives the program beyond macroquad: the fragment of its address, which says
//! what the page does (play, check the golden checksums, or play a replay file beside it), and a
//! way to hand a file out (a download, with its text on the browser's console). The JavaScript
//! half is the `slosh_page` plugin in `web/index.html`. Natively there is no page: the fragment
//! is empty and nothing is handed out. It also keeps a little text in the browser's local storage
//! (the levels' stars).

/// What the page was opened to do, from its address's fragment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageMode {
    /// No fragment: the demo, as natively.
    Play,
    /// `#golden`: run the golden checksums (`golden::CHECKSUMS`) and report on the console.
    Golden,
    /// `#replay=FILE`: play the replay file `FILE`, fetched from beside the page.
    Replay(String),
    /// `#s1.…`: open a link (`crate::share`), checked when it is opened.
    Open(String),
}

impl PageMode {
    /// The mode a fragment (without its `#`) asks for; an unknown one is an error to show.
    pub fn from_fragment(fragment: &str) -> Result<Self, String> {
        match fragment {
            "" => Ok(Self::Play),
            "golden" => Ok(Self::Golden),
            _ if crate::share::version_and_body(fragment).is_some() => {
                Ok(Self::Open(fragment.to_string()))
            }
            _ => match fragment.strip_prefix("replay=") {
                Some(file) if is_plain_file_name(file) => Ok(Self::Replay(file.to_string())),
                _ => Err(format!(
                    "unknown address #{fragment}: use #golden, #replay=FILE (a file beside the page) \
                     or a link"
                )),
            },
        }
    }
}

/// Shows a link to the scene (F10): a page's address takes it after `#` (and the clipboard,
/// where the browser allows it); natively it is printed on standard output.
pub fn show_link(link: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the pointer and length describe a live string for the call; the plugin copies it.
    unsafe {
        js::slosh_page_show_link(link.as_ptr(), link.len() as u32)
    }
    #[cfg(not(target_arch = "wasm32"))]
    println!("{link}");
}

/// A file name without folders or anything a URL would read as more than a name.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The mode the page was opened in (natively: `Play`).
pub fn mode() -> Result<PageMode, String> {
    PageMode::from_fragment(&fragment())
}

/// Hands a text file out of the page: the browser downloads it as `name`, and its text goes to
/// the console between `slosh: file NAME begins` and `slosh: file NAME ends` lines. Natively it
/// does nothing (the window writes files itself).
pub fn hand_out(name: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        macroquad::logging::info!(
            "slosh: file {} begins\n{}\nslosh: file {} ends",
            name,
            text,
            name
        );
        // SAFETY: the pointers and lengths describe live strings for the duration of the call;
        // the plugin copies them out before it returns.
        unsafe {
            js::slosh_page_hand_out(
                name.as_ptr(),
                name.len() as u32,
                text.as_ptr(),
                text.len() as u32,
            )
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, text);
}

/// The text the page's local storage keeps under `key` (natively, and where the browser keeps
/// none, `None`).
pub fn stored(key: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: the key's pointer and length describe a live string for the calls; the
        // plugin writes exactly `length` bytes into the buffer it is given. A length of
        // u32::MAX says nothing is kept.
        let length = unsafe { js::slosh_page_stored_length(key.as_ptr(), key.len() as u32) };
        if length == u32::MAX {
            return None;
        }
        let mut bytes = vec![0u8; length as usize];
        unsafe {
            js::slosh_page_stored(key.as_ptr(), key.len() as u32, bytes.as_mut_ptr(), length)
        };
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = key;
        None
    }
}

/// Keeps `value` under `key` in the page's local storage, where it outlives the page (natively
/// nothing: the window keeps its own file).
pub fn store(key: &str, value: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the pointers and lengths describe live strings for the duration of the call.
    unsafe {
        js::slosh_page_store(
            key.as_ptr(),
            key.len() as u32,
            value.as_ptr(),
            value.len() as u32,
        )
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (key, value);
}

/// The fragment of the page's address, without its `#` and URL-decoded (natively empty).
fn fragment() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: the plugin writes exactly `length` bytes into the buffer it is given.
        let length = unsafe { js::slosh_page_fragment_length() } as usize;
        let mut bytes = vec![0u8; length];
        unsafe { js::slosh_page_fragment(bytes.as_mut_ptr(), length as u32) };
        String::from_utf8_lossy(&bytes).into_owned()
    }
    #[cfg(not(target_arch = "wasm32"))]
    String::new()
}

#[cfg(target_arch = "wasm32")]
mod js {
    //! The functions of the `slosh_page` plugin (`web/index.html`).
    extern "C" {
        /// Bytes of the fragment, URL-decoded, as UTF-8.
        pub fn slosh_page_fragment_length() -> u32;
        /// Writes the fragment's `length` bytes to `buffer`.
        pub fn slosh_page_fragment(buffer: *mut u8, length: u32);
        /// Downloads the text as a file of that name.
        pub fn slosh_page_hand_out(name: *const u8, name_length: u32, text: *const u8, length: u32);
        /// Bytes of the text local storage keeps under the key, as UTF-8 (u32::MAX: none).
        pub fn slosh_page_stored_length(key: *const u8, key_length: u32) -> u32;
        /// Writes the first `length` bytes of the text kept under the key to `buffer`.
        pub fn slosh_page_stored(key: *const u8, key_length: u32, buffer: *mut u8, length: u32);
        /// Puts the link in the page's address (after `#`) and the clipboard.
        pub fn slosh_page_show_link(link: *const u8, length: u32);
        /// Keeps the text under the key in local storage.
        pub fn slosh_page_store(key: *const u8, key_length: u32, value: *const u8, length: u32);
    }

    /// The plugin's version, which macroquad's loader compares with the page's.
    #[no_mangle]
    pub extern "C" fn slosh_page_crate_version() -> u32 {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_name_a_mode_or_are_refused() {
        assert_eq!(PageMode::from_fragment(""), Ok(PageMode::Play));
        assert_eq!(PageMode::from_fragment("golden"), Ok(PageMode::Golden));
        assert_eq!(
            PageMode::from_fragment("replay=native.replay"),
            Ok(PageMode::Replay("native.replay".into()))
        );
        assert_eq!(
            PageMode::from_fragment("s1.eNoB"),
            Ok(PageMode::Open("s1.eNoB".into()))
        );
        for bad in [
            "s.x",
            "sx.1",
            "gold",
            "replay=",
            "replay=../secret",
            "replay=a/b",
            "replay=.hidden",
        ] {
            let error = PageMode::from_fragment(bad).unwrap_err();
            assert!(error.starts_with("unknown address"), "{bad}: {error}");
        }
    }
}
