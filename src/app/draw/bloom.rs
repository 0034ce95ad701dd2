//! Glow: the light that glowing liquid and hot walls give off, blurred and added over the
//! picture, so that lava and hot plates light the air and the liquid around them (after
//! WebGL-Fluid's bloom). The source is drawn at a quarter of the window's size, blurred twice
//! each way by a separable Gaussian whose weights sum to 1 (`look::bloom_weights`: the blur
//! spreads the light without adding any), then added to the window.

use super::look::{bloom_weights, BLOOM_TAPS};
use super::view::{target_pair, View};
use macroquad::miniquad::{BlendFactor, BlendState, Equation, PipelineParams};
use macroquad::prelude::{
    clear_background, draw_texture_ex, gl_use_default_material, gl_use_material, load_material,
    set_camera, set_default_camera, vec2, Camera2D, Color, DrawTextureParams, Material,
    MaterialParams, RenderTarget, ShaderSource, Texture2D, UniformDesc, UniformType, Vec2, WHITE,
};

const SCREEN_VERTEX: &str = include_str!("../../../assets/shaders/screen.vert");
const GLOW_FRAGMENT: &str = concat!(
    include_str!("../../../assets/shaders/prelude.glsl"),
    include_str!("../../../assets/shaders/glow.frag")
);
const BLUR_FRAGMENT: &str = concat!(
    include_str!("../../../assets/shaders/prelude.glsl"),
    include_str!("../../../assets/shaders/blur.frag")
);
const SUM_FRAGMENT: &str = concat!(
    include_str!("../../../assets/shaders/prelude.glsl"),
    include_str!("../../../assets/shaders/bloom.frag")
);

/// The bloom's targets are this share of the window on each axis.
const BLOOM_SCALE: f32 = 0.25;
/// The blur's Gaussian, in target texels (a quarter of the window's): each pass of the two each
/// way; together about 14 window pixels.
const BLUR_SIGMA: f32 = 2.5;
/// How bright the glow is added over the picture.
const STRENGTH: f32 = 0.9;

/// The bloom's shaders and its two targets (the source and the blur's other half).
pub struct Bloom {
    glow: Material,
    blur: Material,
    sum: Material,
    targets: Option<([RenderTarget; 2], (u32, u32))>,
    weights: [f32; BLOOM_TAPS + 1],
}

/// A camera that draws target pixels into `target` of `size` texels, row 0 where a texture's
/// first row is (as the world's camera lays out the fields): a texture covered over the target
/// keeps its way up. (Camera2D does not flip y for render targets, so here y runs as the
/// texture's rows do.)
fn pixels(target: &RenderTarget, size: (u32, u32)) -> Camera2D {
    let (w, h) = (size.0 as f32, size.1 as f32);
    Camera2D {
        target: vec2(0.5 * w, 0.5 * h),
        zoom: vec2(2.0 / w, 2.0 / h),
        render_target: Some(target.clone()),
        ..Default::default()
    }
}

/// `texture` stretched over the whole of the current camera's `size` pixels.
fn cover(texture: &Texture2D, size: (u32, u32)) {
    draw_texture_ex(
        texture,
        0.0,
        0.0,
        WHITE,
        DrawTextureParams {
            dest_size: Some(vec2(size.0 as f32, size.1 as f32)),
            ..Default::default()
        },
    );
}

impl Bloom {
    /// Compiles the shaders; an error names the one that failed.
    pub fn new() -> Result<Self, String> {
        let screen = |name: &str, fragment: &'static str, params: MaterialParams| {
            load_material(
                ShaderSource::Glsl {
                    vertex: SCREEN_VERTEX,
                    fragment,
                },
                params,
            )
            .map_err(|error| format!("{name} shader: {error:?}"))
        };
        let glow = screen(
            "glow",
            GLOW_FRAGMENT,
            MaterialParams {
                uniforms: vec![UniformDesc::new("Threshold", UniformType::Float1)],
                textures: vec!["Looks".into()],
                ..Default::default()
            },
        )?;
        let blur = screen(
            "blur",
            BLUR_FRAGMENT,
            MaterialParams {
                uniforms: vec![
                    UniformDesc::new("Step", UniformType::Float2),
                    UniformDesc::new("Weights", UniformType::Float1).array(BLOOM_TAPS + 1),
                ],
                ..Default::default()
            },
        )?;
        let additive = BlendState::new(Equation::Add, BlendFactor::One, BlendFactor::One);
        let sum = screen(
            "bloom",
            SUM_FRAGMENT,
            MaterialParams {
                pipeline_params: PipelineParams {
                    color_blend: Some(additive),
                    ..Default::default()
                },
                uniforms: vec![UniformDesc::new("Strength", UniformType::Float1)],
                ..Default::default()
            },
        )?;
        Ok(Self {
            glow,
            blur,
            sum,
            targets: None,
            weights: bloom_weights(BLUR_SIGMA),
        })
    }

    /// The two targets for a window of `screen` pixels, made again when its size changed.
    fn targets(&mut self, screen: Vec2) -> ([RenderTarget; 2], (u32, u32)) {
        target_pair(&mut self.targets, screen, BLOOM_SCALE)
    }

    /// Adds the glow over the window: the light of glowing liquid (the splat `field` and its
    /// `looks`, covering the window, liquid from `threshold`) and whatever `also` draws in world
    /// coordinates through the camera it is given (hot walls), blurred. Leaves the default
    /// camera and material in use.
    pub fn draw(
        &mut self,
        field: &Texture2D,
        looks: &Texture2D,
        threshold: f32,
        view: &View,
        also: impl FnOnce(&Camera2D),
    ) {
        let ([source, other], size) = self.targets(view.screen);
        set_camera(&pixels(&source, size));
        clear_background(Color::new(0.0, 0.0, 0.0, 1.0));
        self.glow.set_uniform("Threshold", threshold);
        self.glow.set_texture("Looks", looks.clone());
        gl_use_material(&self.glow);
        cover(field, size);
        gl_use_default_material();
        let world = view.camera(Some(source.clone()));
        set_camera(&world);
        also(&world);

        let texel = vec2(1.0 / size.0 as f32, 1.0 / size.1 as f32);
        self.blur.set_uniform_array("Weights", &self.weights[..]);
        for _ in 0..2 {
            for (from, to, step) in [
                (&source, &other, vec2(texel.x, 0.0)),
                (&other, &source, vec2(0.0, texel.y)),
            ] {
                set_camera(&pixels(to, size));
                self.blur.set_uniform("Step", step);
                gl_use_material(&self.blur);
                cover(&from.texture, size);
                gl_use_default_material();
            }
        }

        set_default_camera();
        self.sum.set_uniform("Strength", STRENGTH);
        gl_use_material(&self.sum);
        let screen = (view.screen.x as u32, view.screen.y as u32);
        cover(&source.texture, screen);
        gl_use_default_material();
    }
}
