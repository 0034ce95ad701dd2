//! Helpers shared by the integration tests.

/// The `[[walls]]` of a box from (0, 0) to (`width`, `height`), as preset text.
pub fn box_walls(width: f32, height: f32) -> String {
    format!(
        "[[walls]]\nnormal = [1.0, 0.0]\noffset = 0.0\n[[walls]]\nnormal = [0.0, 1.0]\noffset = 0.0\n\
         [[walls]]\nnormal = [-1.0, 0.0]\noffset = {}\n[[walls]]\nnormal = [0.0, -1.0]\noffset = {}\n",
        -width, -height
    )
}
