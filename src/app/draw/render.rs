//! Drawing the world: the box, the metaball liquid (Gaussian splats added into an offscreen field,
//! then a threshold pass to the screen), the plain particle view and the rigid bodies. All
//! particles go out as one instanced draw call per frame (`splats`); contexts without instancing
//! get batched meshes.

#![allow(
    clippy::disallowed_methods,
    reason = "drawing only: the platform's own exp and sin_cos touch no simulation state"
)]

use super::bloom::Bloom;
use super::look::{foam_weight, foamy, hot_glow, Look, FOAM_MOST, STEEPNESS, WATER_REFLECTANCE};
use super::palette::{glowing, thermometer};
use super::smoke::SmokeLayer;
use super::splats::{Instance, Splats, Style};
use super::view::{target_pair, View};
use crate::app::game::display::Shading;
use crate::app::game::Game;
use crate::sim::numerics::clock::Instant;
use crate::sim::{BodyShape, Shape, Style as MaterialStyle, World};
use macroquad::miniquad::{
    BlendFactor, BlendState, BlendValue, Equation, PassAction, PipelineParams,
};
use macroquad::prelude::{
    clear_background, draw_circle, draw_line, draw_mesh, draw_texture_ex, draw_triangle,
    gl_use_default_material, gl_use_material, load_material, set_camera, set_default_camera, vec2,
    vec4, Camera, Camera2D, Color, DrawTextureParams, Material, MaterialParams, Mesh, Rect,
    RenderTarget, ShaderSource, UniformDesc, UniformType, Vec2, Vertex, WHITE,
};
use macroquad::window::get_internal_gl;
use rayon::prelude::*;

const SPLAT_VERTEX: &str = include_str!("../../../assets/shaders/splat.vert");
const SPLAT_FRAGMENT: &str = include_str!("../../../assets/shaders/splat.frag");
const DOT_FRAGMENT: &str = include_str!("../../../assets/shaders/dot.frag");
const SCREEN_VERTEX: &str = include_str!("../../../assets/shaders/screen.vert");
const LIQUID_FRAGMENT: &str = concat!(
    include_str!("../../../assets/shaders/prelude.glsl"),
    include_str!("../../../assets/shaders/backdrop.glsl"),
    include_str!("../../../assets/shaders/liquid.frag")
);
const BOX_VERTEX: &str = include_str!("../../../assets/shaders/box.vert");
const BOX_FRAGMENT: &str = concat!(
    include_str!("../../../assets/shaders/prelude.glsl"),
    include_str!("../../../assets/shaders/backdrop.glsl"),
    include_str!("../../../assets/shaders/box.frag")
);

/// Particles per batched mesh where instancing is missing: 4 vertices and 6 indices each, within
/// u16 indices and within the draw-call capacity the window is configured with
/// (`DRAW_CALL_VERTICES`, `DRAW_CALL_INDICES`).
const QUADS_PER_MESH: usize = 8192;
/// Vertex capacity of one draw call (more than one mesh's vertices).
pub const DRAW_CALL_VERTICES: usize = QUADS_PER_MESH * 4 + 16;
/// Index capacity of one draw call (more than one mesh's indices).
pub const DRAW_CALL_INDICES: usize = QUADS_PER_MESH * 6 + 16;

/// Splat Gaussian's sigma, in particle radii.
const SPLAT_SIGMA: f32 = 1.1;
/// Field weight a packed pool may reach, below the 8-bit target's 1.0.
const PACKED_FIELD: f32 = 0.8;
/// Particles per unit area in the most compressed liquid, relative to the rest density.
const PACKED_DENSITY: f32 = 1.5;
/// Liquid surface, as a fraction of one splat's peak weight (a lone particle still shows).
const THRESHOLD: f32 = 0.4;
/// Field resolution relative to the window (the threshold pass smooths the upscale).
const FIELD_SCALE: f32 = 0.5;
/// The back wall's tiles: this many across the box's height.
const TILES_HIGH: f32 = 8.0;
/// How far the liquid bends the view of the wall behind it at full tilt, in tiles.
const BEND: f32 = 0.3;
/// The grain's features, in particle radii.
const GRAIN_SIZE: f32 = 1.2;
/// Steps of the surface normal's differences, in particle radii: longer than the particles'
/// spacing, so that the normal follows the liquid's shape and not the grain of its particles.
const NORMAL_STEP: f32 = 1.6;
/// Particles per parallel task when filling the instance data.
const FILL_CHUNK: usize = 4096;
/// Frames whose splat time enters `Renderer::splat_millis` (their median).
const TIMED_FRAMES: usize = 31;

/// Background outside the box.
pub const OUTSIDE: Color = Color::new(0.055, 0.06, 0.075, 1.0);
/// The walls' outline.
const WALL_RGB: [f32; 3] = [0.55, 0.58, 0.64];
const WALL: Color = Color::new(WALL_RGB[0], WALL_RGB[1], WALL_RGB[2], 1.0);
/// Obstacles (circles and capsules), solid.
const OBSTACLE_RGB: [f32; 3] = [0.42, 0.44, 0.5];
const OBSTACLE: Color = Color::new(OBSTACLE_RGB[0], OBSTACLE_RGB[1], OBSTACLE_RGB[2], 1.0);
/// A body's outline: its colour times this.
const BODY_EDGE: f32 = 0.45;
/// Straight pieces per full turn of a body's curved outline.
const BODY_SEGMENTS: usize = 48;
/// Hinge axles.
const AXLE: Color = Color::new(0.85, 0.87, 0.9, 1.0);
/// The grab line from the held point to the cursor.
const GRAB_LINE: Color = Color::new(1.0, 1.0, 1.0, 0.8);

/// Shaders, the offscreen field, the particles' instance data and how long drawing it took.
pub struct Renderer {
    /// The instanced path; `None` where the context cannot draw instances.
    splats: Option<Splats>,
    /// Fallback materials for the batched meshes (used only without instancing).
    splat: Material,
    dot: Material,
    /// The lit liquid, from the two fields (`assets/shaders/liquid.frag`).
    liquid: Material,
    /// The box's back wall (`assets/shaders/box.frag`).
    backdrop: Material,
    /// The splat field (colour × weight, weight) and the looks field (`look::Look` × weight),
    /// and their size.
    field: Option<([RenderTarget; 2], (u32, u32))>,
    /// The glow of hot and emissive matter.
    bloom: Bloom,
    /// Some particle glows this frame (hot or emissive): the bloom has something to draw.
    glowing: bool,
    /// Each particle's centre and colour this frame (reused, grown to the largest count seen).
    instances: Vec<Instance>,
    /// The materials' colours this frame (reused).
    tints: Vec<Tint>,
    /// The fallback's meshes, empty while instancing works.
    meshes: Vec<Mesh>,
    /// CPU milliseconds of the last frames' particles: filled and uploaded.
    prepare_times: Recent<TIMED_FRAMES>,
    /// ... and also drawn (pass, pipeline, draw calls).
    splat_times: Recent<TIMED_FRAMES>,
    /// This frame's particle milliseconds so far (prepared, then each pass drawn).
    pending_millis: f32,
    /// The air's smoke texture.
    smoke: SmokeLayer,
}

/// The last `KEPT` samples of a time, in milliseconds, for a median that one slow frame does
/// not move.
#[derive(Clone, Debug)]
pub(super) struct Recent<const KEPT: usize> {
    /// A ring: the next sample goes to `count % KEPT`.
    samples: [f32; KEPT],
    /// Samples taken so far.
    count: usize,
}

impl<const KEPT: usize> Default for Recent<KEPT> {
    fn default() -> Self {
        Self {
            samples: [0.0; KEPT],
            count: 0,
        }
    }
}

impl<const KEPT: usize> Recent<KEPT> {
    /// Keeps `millis`, dropping the oldest sample once `KEPT` are kept.
    pub(super) fn push(&mut self, millis: f32) {
        self.samples[self.count % KEPT] = millis;
        self.count += 1;
    }

    /// Median of the samples kept, 0 before the first.
    pub(super) fn median(&self) -> f32 {
        let mut samples = self.samples;
        let samples = &mut samples[..self.count.min(KEPT)];
        if samples.is_empty() {
            return 0.0;
        }
        let middle = samples.len() / 2;
        *samples.select_nth_unstable_by(middle, f32::total_cmp).1
    }
}

/// Where the particle quads go and how they look.
struct Pass<'a> {
    /// The camera (world to the window, or to the field target).
    camera: &'a Camera2D,
    /// Half the quad's side, world units.
    half: f32,
    /// Splats (cleared target first) or dots (over what is drawn).
    style: Style,
    /// The frame's last particle pass (its time closes `splat_millis`).
    last: bool,
}

/// The uniforms of the box's back wall (`backdrop.glsl`), which the liquid also reads.
struct Backdrop {
    /// The box's bounds: min x, min y, max x, max y.
    bounds: [f32; 4],
    /// A tile's side, world units.
    tile: f32,
    /// World units per window pixel.
    pixel: f32,
}

impl Backdrop {
    fn of(world: &World, view: &View) -> Self {
        let (min, max) = (world.domain().min(), world.domain().max());
        Self {
            bounds: [min.x, min.y, max.x, max.y],
            tile: ((max.y - min.y) / TILES_HIGH).max(1e-3),
            pixel: 1.0 / view.scale,
        }
    }

    fn set(&self, material: &Material) {
        material.set_uniform("Box", self.bounds);
        material.set_uniform("Tile", self.tile);
        material.set_uniform("Pixel", self.pixel);
    }
}

/// The backdrop's uniforms, for a material that draws it.
fn backdrop_uniforms() -> Vec<UniformDesc> {
    vec![
        UniformDesc::new("Box", UniformType::Float4),
        UniformDesc::new("Tile", UniformType::Float1),
        UniformDesc::new("Pixel", UniformType::Float1),
    ]
}

impl Renderer {
    /// Compiles the shaders; an error names the shader that failed.
    pub fn new() -> Result<Self, String> {
        let additive = BlendState::new(Equation::Add, BlendFactor::One, BlendFactor::One);
        let alpha = BlendState::new(
            Equation::Add,
            BlendFactor::Value(BlendValue::SourceAlpha),
            BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
        );
        let splats = {
            // SAFETY: macroquad's context is not used while `gl` lives.
            let gl = unsafe { get_internal_gl() };
            Splats::new(
                gl.quad_context,
                SPLAT_FRAGMENT,
                DOT_FRAGMENT,
                additive,
                alpha,
            )?
        };
        let splat = load_material(
            ShaderSource::Glsl {
                vertex: SPLAT_VERTEX,
                fragment: SPLAT_FRAGMENT,
            },
            MaterialParams {
                pipeline_params: PipelineParams {
                    color_blend: Some(additive),
                    alpha_blend: Some(additive),
                    ..Default::default()
                },
                uniforms: vec![UniformDesc::new("Weight", UniformType::Float1)],
                ..Default::default()
            },
        )
        .map_err(|error| format!("splat shader: {error:?}"))?;
        let dot = load_material(
            ShaderSource::Glsl {
                vertex: SPLAT_VERTEX,
                fragment: DOT_FRAGMENT,
            },
            MaterialParams {
                pipeline_params: PipelineParams {
                    color_blend: Some(alpha),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
        .map_err(|error| format!("dot shader: {error:?}"))?;
        let mut uniforms = backdrop_uniforms();
        uniforms.extend([
            UniformDesc::new("Threshold", UniformType::Float1),
            UniformDesc::new("Full", UniformType::Float1),
            UniformDesc::new("Texel", UniformType::Float2),
            UniformDesc::new("WorldFromUv", UniformType::Float4),
            UniformDesc::new("Bend", UniformType::Float1),
            UniformDesc::new("Grain", UniformType::Float1),
            UniformDesc::new("Time", UniformType::Float1),
            UniformDesc::new("Steepness", UniformType::Float1),
            UniformDesc::new("HeadOn", UniformType::Float1),
            UniformDesc::new("Lite", UniformType::Float1),
            UniformDesc::new("LiteLook", UniformType::Float4),
        ]);
        let liquid = load_material(
            ShaderSource::Glsl {
                vertex: SCREEN_VERTEX,
                fragment: LIQUID_FRAGMENT,
            },
            MaterialParams {
                pipeline_params: PipelineParams {
                    color_blend: Some(alpha),
                    ..Default::default()
                },
                uniforms,
                textures: vec!["Looks".into()],
            },
        )
        .map_err(|error| format!("liquid shader: {error:?}"))?;
        let backdrop = load_material(
            ShaderSource::Glsl {
                vertex: BOX_VERTEX,
                fragment: BOX_FRAGMENT,
            },
            MaterialParams {
                uniforms: backdrop_uniforms(),
                ..Default::default()
            },
        )
        .map_err(|error| format!("box shader: {error:?}"))?;
        Ok(Self {
            splats,
            splat,
            dot,
            liquid,
            backdrop,
            field: None,
            bloom: Bloom::new()?,
            glowing: false,
            instances: Vec::new(),
            tints: Vec::new(),
            meshes: Vec::new(),
            prepare_times: Recent::default(),
            splat_times: Recent::default(),
            pending_millis: 0.0,
            smoke: SmokeLayer::default(),
        })
    }

    /// CPU milliseconds to prepare and submit one frame's particles: fill the instance data,
    /// upload it, then the pass, pipeline and draw calls (not waiting for the GPU). The median of
    /// the last `TIMED_FRAMES` frames, 0 before the first.
    ///
    /// With a software rasterizer (llvmpipe) the draw call itself runs the vertex stage on the
    /// CPU, which a GPU does elsewhere: see `splat_prepare_millis` for the part without it.
    pub fn splat_millis(&self) -> f32 {
        self.splat_times.median()
    }

    /// The fill and upload part of `splat_millis` (without the draw calls), same median.
    pub fn splat_prepare_millis(&self) -> f32 {
        self.prepare_times.median()
    }

    /// The size of the texture the smoke is drawn from (texels across, down), once drawn.
    pub fn smoke_texture_size(&self) -> Option<(usize, usize)> {
        self.smoke.texture_size()
    }

    /// Draws the box, its liquid (or particles), smoke, bodies, walls and obstacles into the
    /// window, then the glow of what is hot.
    pub fn draw_world(&mut self, game: &Game, view: &View, fraction: f32) {
        let world = &game.session.world;
        clear_background(OUTSIDE);
        let camera = view.camera(None);
        set_camera(&camera);
        let backdrop = Backdrop::of(world, view);
        backdrop.set(&self.backdrop);
        gl_use_material(&self.backdrop);
        draw_box(world);
        gl_use_default_material();
        if let (true, Some(air)) = (game.display.smoke_view, world.air()) {
            self.smoke.draw(air, world.time());
        }
        let liquid_view = !game.display.particle_view;
        if liquid_view {
            self.draw_liquid(game, view, fraction, &backdrop);
        } else {
            let radius = world.params().particle_radius;
            let pass = Pass {
                camera: &camera,
                half: radius.max(1.0 / view.scale),
                style: Style::Dot,
                last: true,
            };
            self.prepare_particles(game, fraction);
            self.draw_particles(&pass);
        }
        // Over the liquid: its surface is opaque and would eat a particle radius of every
        // submerged body's rim (the particles keep that far out), shrinking the shapes.
        draw_bodies(game, view, fraction);
        draw_walls(world, view);
        draw_obstacles(world);
        set_default_camera();
        let hot_walls = hot_walls(world);
        if liquid_view && !game.display.lite && (self.glowing || !hot_walls.is_empty()) {
            let (field, (_, threshold)) =
                (self.field.as_ref().expect("drawn"), self.weights(world));
            let [colours, looks] = &field.0;
            self.bloom
                .draw(&colours.texture, &looks.texture, threshold, view, |_| {
                    draw_hot_walls(&hot_walls, view)
                });
        }
    }

    /// A splat's peak weight in the field for `world`'s particles, and the field weight at the
    /// liquid's surface.
    fn weights(&self, world: &World) -> (f32, f32) {
        let params = world.params();
        let sigma = SPLAT_SIGMA * params.particle_radius;
        let packed = PACKED_DENSITY * params.rest_density;
        let weight = (PACKED_FIELD / (packed * std::f32::consts::TAU * sigma * sigma)).min(0.9);
        (weight, THRESHOLD * weight)
    }

    /// Metaballs: the particles splatted into the two fields (their colours, then their looks),
    /// then the lit liquid drawn from them onto the window.
    fn draw_liquid(&mut self, game: &Game, view: &View, fraction: f32, backdrop: &Backdrop) {
        let world = &game.session.world;
        let params = world.params();
        let sigma = SPLAT_SIGMA * params.particle_radius;
        let (weight, threshold) = self.weights(world);
        let ([colours, looks], (width, height)) = self.field_targets(view);

        self.prepare_particles(game, fraction);
        let lite = game.display.lite;
        let passes = [(&colours, false), (&looks, true)];
        let passes = &passes[..if lite { 1 } else { 2 }];
        for (index, &(target, looks)) in passes.iter().enumerate() {
            let pass = Pass {
                camera: &view.camera(Some(target.clone())),
                half: 3.0 * sigma,
                style: Style::Splat { weight, looks },
                last: index + 1 == passes.len(),
            };
            self.draw_particles(&pass);
        }

        set_default_camera();
        let liquid = &self.liquid;
        backdrop.set(liquid);
        liquid.set_uniform("Threshold", threshold);
        liquid.set_uniform("Full", PACKED_FIELD / PACKED_DENSITY);
        let (screen, scale) = (view.screen, view.scale);
        let step = NORMAL_STEP * params.particle_radius * scale;
        liquid.set_uniform("Texel", [step / screen.x, step / screen.y]);
        liquid.set_uniform(
            "WorldFromUv",
            [
                screen.x / scale,
                view.centre.x - 0.5 * screen.x / scale,
                -screen.y / scale,
                view.centre.y + 0.5 * screen.y / scale,
            ],
        );
        liquid.set_uniform("Bend", BEND * backdrop.tile);
        liquid.set_uniform("Grain", 1.0 / (GRAIN_SIZE * params.particle_radius));
        liquid.set_uniform("Time", world.time() as f32);
        liquid.set_uniform("Steepness", STEEPNESS);
        liquid.set_uniform("HeadOn", WATER_REFLECTANCE);
        liquid.set_uniform("Lite", if lite { 1.0f32 } else { 0.0 });
        liquid.set_uniform("LiteLook", Look::of(MaterialStyle::Clear).to_array());
        liquid.set_texture("Looks", looks.texture.clone());
        gl_use_material(liquid);
        // Only the box's part of the window (plus a splat's reach) can hold liquid.
        let reach = Vec2::splat(3.0 * sigma);
        let corner_a = view.to_screen(world.domain().min() - reach);
        let corner_b = view.to_screen(world.domain().max() + reach);
        let low = corner_a.min(corner_b).max(Vec2::ZERO).floor();
        let high = corner_a.max(corner_b).min(view.screen).ceil();
        let size = (high - low).max(Vec2::ONE);
        let to_texels = Vec2::new(width as f32, height as f32) / view.screen;
        draw_texture_ex(
            &colours.texture,
            low.x,
            low.y,
            WHITE,
            DrawTextureParams {
                dest_size: Some(size),
                source: Some(Rect::new(
                    low.x * to_texels.x,
                    low.y * to_texels.y,
                    size.x * to_texels.x,
                    size.y * to_texels.y,
                )),
                ..Default::default()
            },
        );
        gl_use_default_material();
        set_camera(&view.camera(None));
    }

    /// The two field targets (colours, looks), made again when the window's size changed.
    fn field_targets(&mut self, view: &View) -> ([RenderTarget; 2], (u32, u32)) {
        target_pair(&mut self.field, view.screen, FIELD_SCALE)
    }

    /// Fills the particles' instance data for this frame and uploads it (timed for
    /// `splat_prepare_millis`).
    fn prepare_particles(&mut self, game: &Game, fraction: f32) {
        // What macroquad batched so far (the box) goes out first, so the particles land on it.
        // SAFETY (here and below): macroquad is not called while the context handle lives.
        unsafe { get_internal_gl() }.flush();
        let start = Instant::now();
        self.glowing = self.fill_instances(game, fraction);
        if let Some(splats) = &mut self.splats {
            let gl = unsafe { get_internal_gl() };
            splats.upload(gl.quad_context, &self.instances);
        }
        let millis = start.elapsed().as_secs_f32() * 1000.0;
        self.prepare_times.push(millis);
        self.pending_millis = millis;
    }

    /// Every particle as one quad of `pass`: splats clear the camera's render target first, dots
    /// go over the window's box (drawn before) and under the walls (drawn after). The CPU side
    /// of the frame's passes, with their preparation, makes `splat_millis`.
    fn draw_particles(&mut self, pass: &Pass) {
        let start = Instant::now();
        if let Some(splats) = &mut self.splats {
            let gl = unsafe { get_internal_gl() };
            let action = match pass.style {
                Style::Splat { .. } => PassAction::clear_color(0.0, 0.0, 0.0, 0.0),
                Style::Dot => PassAction::Nothing,
            };
            let target = pass.camera.render_target.as_ref();
            splats.draw(
                gl.quad_context,
                target.map(|target| target.render_pass.raw_miniquad_id()),
                action,
                pass.camera.matrix(),
                pass.half,
                pass.style,
            );
        } else {
            self.draw_meshes(pass);
            unsafe { get_internal_gl() }.flush();
        }
        self.pending_millis += start.elapsed().as_secs_f32() * 1000.0;
        if pass.last {
            self.splat_times.push(self.pending_millis);
        }
    }

    /// Each particle's drawn position, colour and look into `instances`, in parallel chunks;
    /// true when some particle glows.
    fn fill_instances(&mut self, game: &Game, fraction: f32) -> bool {
        let world = &game.session.world;
        let p = world.particles();
        self.tints.clear();
        self.tints
            .extend(world.materials().iter().map(|material| Tint {
                colour: material.colour,
                pressure_bias: material.pressure_bias,
                pressure_scale: material.pressure_scale,
                look: Look::of(material.style),
                speckle: material.style == MaterialStyle::Grain,
            }));
        let tints = &self.tints[..];
        // The particle view shows each material's own colour, or in the temperature view each
        // particle's temperature.
        let shading = match (game.display.particle_view, game.display.shading) {
            (_, Shading::Temperature) => Some(Shading::Temperature),
            (true, _) => None,
            (false, shading) => Some(shading),
        };
        let extent = world.domain().max() - world.domain().min();
        let reference_speed = (world.params().gravity.length() * extent.y).sqrt().max(1.0);
        let rest_density = world.params().rest_density.max(1e-6);
        self.instances.resize(p.len(), Instance::default());
        self.instances
            .par_chunks_mut(FILL_CHUNK)
            .enumerate()
            .map(|(number, instances)| {
                let range = number * FILL_CHUNK..number * FILL_CHUNK + instances.len();
                let chunk = Chunk {
                    game,
                    fraction,
                    tints,
                    first: range.start,
                    materials: &p.material[range.clone()],
                    speckled: matches!(shading, None | Some(Shading::Natural))
                        .then(|| &p.id[range.clone()]),
                };
                // Hot particles glow in every view but the temperature view.
                let temperature = &p.temperature[range.clone()];
                let hot = |look: Look, k: usize| look.glowing(hot_glow(temperature[k]));
                match shading {
                    None => chunk.fill(instances, |tint, k| {
                        (glowing(tint.colour, temperature[k]), hot(tint.look, k))
                    }),
                    Some(Shading::Natural) => {
                        let mass = &p.mass[range.clone()];
                        let (velocity, density) = (&p.velocity[range.clone()], &p.density[range]);
                        chunk.fill(instances, |tint, k| {
                            let ratio = density[k] / (mass[k] * rest_density);
                            // Grains do not foam.
                            let foam = if tint.speckle {
                                0.0
                            } else {
                                foam_weight(ratio, velocity[k].length() / reference_speed)
                            };
                            let colour = glowing(foamy(tint.colour, foam), temperature[k]);
                            (colour, hot(tint.look.foamed(foam), k))
                        })
                    }
                    Some(Shading::Pressure) => {
                        let pressure = &p.pressure[range];
                        chunk.fill(instances, |tint, k| {
                            let factor = tint.pressure_bias + tint.pressure_scale * pressure[k];
                            let factor = if factor.is_finite() {
                                factor.clamp(0.0, 2.0)
                            } else {
                                1.0
                            };
                            let colour = tint.colour.map(|c| c * factor);
                            (glowing(colour, temperature[k]), hot(tint.look, k))
                        })
                    }
                    Some(Shading::Speed) => {
                        let velocity = &p.velocity[range];
                        chunk.fill(instances, |tint, k| {
                            let speed = velocity[k].length();
                            let foam = if speed.is_finite() {
                                let x = (speed / reference_speed).clamp(0.0, 1.0);
                                x * x.sqrt() * FOAM_MOST
                            } else {
                                0.0
                            };
                            let colour = glowing(foamy(tint.colour, foam), temperature[k]);
                            (colour, hot(tint.look.foamed(foam), k))
                        })
                    }
                    Some(Shading::Temperature) => {
                        chunk.fill(instances, |_, k| (thermometer(temperature[k]), Look::PLAIN))
                    }
                }
            })
            .reduce(|| false, |a, b| a || b)
    }

    /// The fallback without instancing: the instances as quads in macroquad meshes of at most
    /// `QUADS_PER_MESH` quads each, drawn with the splat or dot material (the looks pass with
    /// each particle's look as its colour).
    fn draw_meshes(&mut self, pass: &Pass) {
        let needed = self.instances.len().div_ceil(QUADS_PER_MESH);
        while self.meshes.len() < needed {
            self.meshes.push(Mesh {
                vertices: Vec::with_capacity(QUADS_PER_MESH * 4),
                indices: Vec::with_capacity(QUADS_PER_MESH * 6),
                texture: None,
            });
        }
        self.meshes.truncate(needed);
        let looks = matches!(pass.style, Style::Splat { looks: true, .. });
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        for (mesh, chunk) in self
            .meshes
            .iter_mut()
            .zip(self.instances.chunks(QUADS_PER_MESH))
        {
            mesh.vertices.clear();
            mesh.indices.clear();
            for (quad, instance) in chunk.iter().enumerate() {
                let centre = Vec2::from_array(instance.centre);
                let color = if looks {
                    instance.look
                } else {
                    instance.colour
                };
                for (u, v) in corners {
                    mesh.vertices.push(Vertex {
                        position: (centre + Vec2::new(u, v) * pass.half).extend(0.0),
                        uv: vec2(u, v),
                        color,
                        normal: vec4(0.0, 0.0, 0.0, 0.0),
                    });
                }
                let first = (quad * 4) as u16;
                mesh.indices.extend_from_slice(&[
                    first,
                    first + 1,
                    first + 2,
                    first,
                    first + 2,
                    first + 3,
                ]);
            }
        }
        set_camera(pass.camera);
        let material = match pass.style {
            Style::Splat { weight, .. } => {
                clear_background(Color::new(0.0, 0.0, 0.0, 0.0));
                self.splat.set_uniform("Weight", weight);
                &self.splat
            }
            Style::Dot => &self.dot,
        };
        gl_use_material(material);
        for mesh in &self.meshes {
            draw_mesh(mesh);
        }
        gl_use_default_material();
    }
}

/// A material's colour, pressure shading and look, as the fill reads them.
#[derive(Clone, Copy, Debug)]
struct Tint {
    colour: [f32; 3],
    pressure_bias: f32,
    pressure_scale: f32,
    look: Look,
    /// Each particle a shade of its own (`Look::speckle`): the `grain` style.
    speckle: bool,
}

/// What filling one chunk of instances reads.
struct Chunk<'a> {
    game: &'a Game,
    fraction: f32,
    tints: &'a [Tint],
    /// Index of the chunk's first particle.
    first: usize,
    /// The chunk's particles' materials.
    materials: &'a [u16],
    /// The chunk's particles' ids, where grains are speckled (not in the pressure and
    /// temperature views, whose colours are numbers).
    speckled: Option<&'a [u32]>,
}

impl Chunk<'_> {
    /// Each instance's drawn position, colour and look: its material's tint shaded by
    /// `shade(tint, k)` for the chunk's `k`-th particle (linear RGB in 0..=1, clamped here, and
    /// its look). True when some particle of the chunk glows.
    fn fill(
        &self,
        instances: &mut [Instance],
        shade: impl Fn(&Tint, usize) -> ([f32; 3], Look),
    ) -> bool {
        let last = self.tints.len() - 1;
        let to_byte = |c: f32| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        let mut glowing = false;
        for (k, (instance, &material)) in instances.iter_mut().zip(self.materials).enumerate() {
            let tint = &self.tints[usize::from(material).min(last)];
            let (mut rgb, look) = shade(tint, k);
            if let (true, Some(ids)) = (tint.speckle, self.speckled) {
                let shade = Look::speckle(ids[k]);
                rgb = rgb.map(|c| c * shade);
            }
            glowing |= look.glow > 0.0;
            *instance = Instance {
                centre: self
                    .game
                    .drawn_position(self.first + k, self.fraction)
                    .to_array(),
                colour: [to_byte(rgb[0]), to_byte(rgb[1]), to_byte(rgb[2]), 255],
                look: look.to_bytes(),
            };
        }
        glowing
    }
}

/// The fluid region, filled (a fan of triangles: it is convex) with the material in use.
fn draw_box(world: &World) {
    let polygon = world.domain().polygon();
    if let Some((&first, rest)) = polygon.split_first() {
        for pair in rest.windows(2) {
            draw_triangle(first, pair[0], pair[1], WHITE);
        }
    }
}

/// The box's edges that are hot plates, each with how strongly it glows and its colour.
fn hot_walls(world: &World) -> Vec<(Vec2, Vec2, f32, Color)> {
    let polygon = world.domain().polygon();
    let walls = world.domain().walls();
    (0..polygon.len())
        .filter_map(|k| {
            let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            // The wall the edge lies on: both its ends on the wall's line.
            let wall = walls.iter().min_by(|u, v| {
                let off = |w: &&crate::sim::Wall| w.distance(a).abs() + w.distance(b).abs();
                off(u).total_cmp(&off(v))
            })?;
            let temperature = wall.temperature?;
            let glow = hot_glow(temperature);
            (glow > 0.0).then(|| {
                let [r, g, b_] = glowing(WALL_RGB, temperature);
                (a, b, glow, Color::new(r, g, b_, 1.0))
            })
        })
        .collect()
}

/// The hot plates, drawn as glowing bands into the bloom's source (through its camera).
fn draw_hot_walls(walls: &[(Vec2, Vec2, f32, Color)], view: &View) {
    let thickness = 6.0 / view.scale;
    for &(a, b, glow, colour) in walls {
        let c = Color::new(colour.r * glow, colour.g * glow, colour.b * glow, 1.0);
        draw_line(a.x, a.y, b.x, b.y, thickness, c);
    }
}

/// The walls' outline, about two pixels thick; hot plates glow in the colour of their heat.
fn draw_walls(world: &World, view: &View) {
    let polygon = world.domain().polygon();
    let thickness = 2.5 / view.scale;
    for (k, &a) in polygon.iter().enumerate() {
        let b = polygon[(k + 1) % polygon.len()];
        draw_line(a.x, a.y, b.x, b.y, thickness, WALL);
    }
    for (a, b, _, colour) in hot_walls(world) {
        draw_line(a.x, a.y, b.x, b.y, 1.6 * thickness, colour);
    }
}

/// The static obstacles, solid: discs, and capsules as a thick line with round ends; hot ones
/// glow in the colour of their heat.
fn draw_obstacles(world: &World) {
    for obstacle in world.obstacles() {
        let colour = match obstacle.temperature {
            Some(temperature) if hot_glow(temperature) > 0.0 => {
                let [r, g, b] = glowing(OBSTACLE_RGB, temperature);
                Color::new(r, g, b, 1.0)
            }
            _ => OBSTACLE,
        };
        match obstacle.shape {
            Shape::Circle { centre, radius } => draw_circle(centre.x, centre.y, radius, colour),
            Shape::Capsule { a, b, radius } => {
                draw_line(a.x, a.y, b.x, b.y, 2.0 * radius, colour);
                draw_circle(a.x, a.y, radius, colour);
                draw_circle(b.x, b.y, radius, colour);
            }
        }
    }
}

/// A world point of a body's frame, at the drawn pose `(position, angle)`.
fn posed(pose: (Vec2, f32), point: Vec2) -> Vec2 {
    pose.0 + Vec2::from_angle(pose.1).rotate(point)
}

/// `colour` (linear RGB as the scene gives it, drawn as is like the materials' colours) times
/// `factor`, opaque.
fn shade(colour: [f32; 3], factor: f32) -> Color {
    Color::new(
        (colour[0] * factor).clamp(0.0, 1.0),
        (colour[1] * factor).clamp(0.0, 1.0),
        (colour[2] * factor).clamp(0.0, 1.0),
        1.0,
    )
}

/// The rigid bodies at their drawn poses (between the last two frames by `fraction`), then
/// their hinges' axles and the grab line. Each body: every part's outline as a thick dark line
/// first, then every part filled over it, so that the parts merge into one solid with one
/// outline; a lone disc gets a spoke so that a rolling ball shows its turn. Drawn over the
/// liquid and the particle view.
fn draw_bodies(game: &Game, view: &View, fraction: f32) {
    let Some(bodies) = game.session.world.bodies() else {
        return;
    };
    let edge = 1.5 / view.scale;
    for (index, body) in bodies.specs().iter().enumerate() {
        let pose = game.drawn_body_pose(index, fraction);
        if !(pose.0.is_finite() && pose.1.is_finite()) {
            continue;
        }
        let outlines: Vec<Vec<Vec2>> = body
            .parts
            .iter()
            .map(|part| {
                part.outline(BODY_SEGMENTS)
                    .into_iter()
                    .map(|p| posed(pose, p))
                    .collect()
            })
            .collect();
        let dark = shade(body.colour, BODY_EDGE);
        for outline in &outlines {
            for (k, &a) in outline.iter().enumerate() {
                let b = outline[(k + 1) % outline.len()];
                draw_line(a.x, a.y, b.x, b.y, 2.0 * edge, dark);
                draw_circle(a.x, a.y, edge, dark);
            }
        }
        let fill = shade(body.colour, 1.0);
        for outline in &outlines {
            let centre = outline.iter().copied().sum::<Vec2>() / outline.len().max(1) as f32;
            for (k, &a) in outline.iter().enumerate() {
                draw_triangle(centre, a, outline[(k + 1) % outline.len()], fill);
            }
        }
        // A lone disc shows no turn by its outline: a spoke does.
        if let [part] = &body.parts[..] {
            if let BodyShape::Circle { radius } = part.shape {
                let centre = posed(pose, part.to_body(Vec2::ZERO));
                let rim = posed(pose, part.to_body(Vec2::new(0.7 * radius, 0.0)));
                draw_line(centre.x, centre.y, rim.x, rim.y, 1.5 * edge, dark);
                draw_circle(centre.x, centre.y, 1.5 * edge, dark);
            }
        }
    }
    for hinge in bodies.hinges() {
        let spec = &bodies.specs()[hinge.body];
        let local = spec.to_local(hinge.anchor);
        let axle = posed(game.drawn_body_pose(hinge.body, fraction), local);
        let radius = 4.0 / view.scale;
        draw_circle(axle.x, axle.y, radius, AXLE);
        draw_circle(axle.x, axle.y, 0.5 * radius, shade(spec.colour, BODY_EDGE));
    }
    if let Some((index, held, cursor)) = bodies.held() {
        // The held point as drawn, not where the body is a fraction of a frame ahead.
        let state = bodies.state(index);
        let local = state.to_local(held);
        let held = posed(game.drawn_body_pose(index, fraction), local);
        draw_line(held.x, held.y, cursor.x, cursor.y, edge, GRAB_LINE);
        draw_circle(held.x, held.y, 2.5 / view.scale, GRAB_LINE);
    }
}
