//! Helpers shared by the integration tests.
#![allow(
    dead_code,
    reason = "each module uses some of the helpers, and fewer without the default features"
)]

use slosh::sim::{SpringList, World};
use std::collections::HashSet;

/// `run` on a rayon pool of `threads` threads (the results must not depend on the count).
pub fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(run)
}

/// The `[[walls]]` of a box from (0, 0) to (`width`, `height`), as preset text.
pub fn box_walls(width: f32, height: f32) -> String {
    format!(
        "[[walls]]\nnormal = [1.0, 0.0]\noffset = 0.0\n[[walls]]\nnormal = [0.0, 1.0]\noffset = 0.0\n\
         [[walls]]\nnormal = [-1.0, 0.0]\noffset = {}\n[[walls]]\nnormal = [0.0, -1.0]\noffset = {}\n",
        -width, -height
    )
}

/// The springs, each once, as pairs of particle ids (the lower id first).
pub fn spring_pairs(world: &World) -> HashSet<(u32, u32)> {
    let lists: Vec<SpringList> = world.state().subsystem("springs").unwrap_or_default();
    lists
        .iter()
        .flat_map(|list| {
            list.springs
                .iter()
                .map(move |spring| (list.id, spring.other))
        })
        .filter(|(id, other)| id < other)
        .collect()
}
