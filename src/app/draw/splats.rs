//! Particles as instanced quads, drawn with miniquad directly: one static quad (4 corners, 6
//! indices) and one per-instance buffer (each particle's centre and colour), so a frame costs one
//! buffer update and one draw call however many particles there are.

use macroquad::miniquad::{
    Backend, Bindings, BlendState, BufferId, BufferLayout, BufferSource, BufferType, BufferUsage,
    PassAction, Pipeline, PipelineParams, RenderPass, RenderingBackend, ShaderMeta, ShaderSource,
    UniformBlockLayout, UniformDesc, UniformType, UniformsSource, VertexAttribute, VertexFormat,
    VertexStep,
};
use macroquad::prelude::Mat4;

/// Places a corner of particle `centre`'s quad and hands the fragment shaders the same varyings
/// as macroquad's meshes did: `offset` runs from -1 to 1 across the quad, `colour` in 0..1.
const VERTEX: &str = r#"#version 100
attribute vec2 corner;
attribute vec2 centre;
attribute vec4 colour0;
attribute vec4 look0;

varying mediump vec2 offset;
varying lowp vec4 colour;

// World to clip space (the camera's view-projection).
uniform mat4 Matrix;
// Half the quad's side, in world units.
uniform float HalfSize;
// 1: the looks pass, which splats each particle's look in place of its colour.
uniform float Looks;

void main() {
    gl_Position = Matrix * vec4(centre + corner * HalfSize, 0.0, 1.0);
    colour = mix(colour0, look0, Looks) / 255.0;
    offset = corner;
}
"#;

/// One particle as the GPU reads it: centre (world units), 8-bit RGBA colour and its look
/// (`look::Look::to_bytes`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instance {
    /// Centre, world units.
    pub centre: [f32; 2],
    /// Colour, 0..=255 per channel (the vertex shader scales it to 0..1).
    pub colour: [u8; 4],
    /// Clarity, gloss, glow and grain, 0..=255 each: what the looks pass splats.
    pub look: [u8; 4],
}

/// The uniforms of both pipelines, in `ShaderMeta` order (the dot shader ignores `Weight`).
#[repr(C)]
struct Uniforms {
    matrix: [f32; 16],
    half_size: f32,
    weight: f32,
    looks: f32,
}

/// Which look the quads get.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// Gaussian splats added into a field target, each weighing `weight` at its centre.
    Splat {
        /// Peak weight of one splat.
        weight: f32,
        /// The looks field (each particle's look), not the colours.
        looks: bool,
    },
    /// Round dots, alpha-blended.
    Dot,
}

/// Pipelines and buffers of the instanced path.
///
/// The GPU objects live as long as the window: the renderer that owns this is made once and
/// kept until the program ends, so nothing is deleted on drop.
pub struct Splats {
    splat: Pipeline,
    dot: Pipeline,
    bindings: Bindings,
    /// Instances the per-instance buffer (`bindings.vertex_buffers[1]`) holds.
    capacity: usize,
    /// Instances uploaded by the last `upload`.
    count: usize,
}

impl Splats {
    /// Compiles the pipelines with the given fragment shaders and blend states; `Ok(None)` where
    /// the context cannot draw instances (miniquad on GL 2 or GLES 2 contexts), an error names the
    /// shader that failed.
    pub fn new(
        ctx: &mut dyn RenderingBackend,
        splat_fragment: &str,
        dot_fragment: &str,
        additive: BlendState,
        alpha: BlendState,
    ) -> Result<Option<Self>, String> {
        let info = ctx.info();
        if info.backend != Backend::OpenGl || !info.features.instancing {
            return Ok(None);
        }
        let meta = || ShaderMeta {
            uniforms: UniformBlockLayout {
                uniforms: vec![
                    UniformDesc::new("Matrix", UniformType::Mat4),
                    UniformDesc::new("HalfSize", UniformType::Float1),
                    UniformDesc::new("Weight", UniformType::Float1),
                    UniformDesc::new("Looks", UniformType::Float1),
                ],
            },
            images: Vec::new(),
        };
        let buffers = [
            BufferLayout::default(),
            BufferLayout {
                step_func: VertexStep::PerInstance,
                ..Default::default()
            },
        ];
        let attributes = [
            VertexAttribute::with_buffer("corner", VertexFormat::Float2, 0),
            VertexAttribute::with_buffer("centre", VertexFormat::Float2, 1),
            VertexAttribute::with_buffer("colour0", VertexFormat::Byte4, 1),
            VertexAttribute::with_buffer("look0", VertexFormat::Byte4, 1),
        ];
        let mut pipeline = |name: &str, fragment: &str, blend: BlendState, alpha_blend| {
            let shader = ctx
                .new_shader(
                    ShaderSource::Glsl {
                        vertex: VERTEX,
                        fragment,
                    },
                    meta(),
                )
                .map_err(|error| format!("instanced {name} shader: {error}"))?;
            Ok::<_, String>(ctx.new_pipeline(
                &buffers,
                &attributes,
                shader,
                PipelineParams {
                    color_blend: Some(blend),
                    alpha_blend,
                    ..Default::default()
                },
            ))
        };
        let splat = pipeline("splat", splat_fragment, additive, Some(additive))?;
        let dot = pipeline("dot", dot_fragment, alpha, None)?;

        let corners: [[f32; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let quad = ctx.new_buffer(
            BufferType::VertexBuffer,
            BufferUsage::Immutable,
            BufferSource::slice(&corners),
        );
        let indices: [u16; 6] = [0, 1, 2, 0, 2, 3];
        let index_buffer = ctx.new_buffer(
            BufferType::IndexBuffer,
            BufferUsage::Immutable,
            BufferSource::slice(&indices),
        );
        let capacity = 1024;
        let instances = instance_buffer(ctx, capacity);
        Ok(Some(Self {
            splat,
            dot,
            bindings: Bindings {
                vertex_buffers: vec![quad, instances],
                index_buffer,
                images: Vec::new(),
            },
            capacity,
            count: 0,
        }))
    }

    /// Copies `instances` into the per-instance buffer, first growing it when they do not fit.
    pub fn upload(&mut self, ctx: &mut dyn RenderingBackend, instances: &[Instance]) {
        if instances.len() > self.capacity {
            ctx.delete_buffer(self.bindings.vertex_buffers[1]);
            self.capacity = instances.len().next_power_of_two();
            self.bindings.vertex_buffers[1] = instance_buffer(ctx, self.capacity);
        }
        if !instances.is_empty() {
            ctx.buffer_update(
                self.bindings.vertex_buffers[1],
                BufferSource::slice(instances),
            );
        }
        self.count = instances.len();
    }

    /// Draws the uploaded instances as quads of half-size `half` (world units) through `matrix`
    /// (world to clip space) into `pass` (`None`: the window), after `action` (a clear, or
    /// nothing to draw over what is there).
    pub fn draw(
        &self,
        ctx: &mut dyn RenderingBackend,
        pass: Option<RenderPass>,
        action: PassAction,
        matrix: Mat4,
        half: f32,
        style: Style,
    ) {
        ctx.begin_pass(pass, action);
        if self.count > 0 {
            let (pipeline, weight, looks) = match style {
                Style::Splat { weight, looks } => (&self.splat, weight, f32::from(u8::from(looks))),
                Style::Dot => (&self.dot, 0.0, 0.0),
            };
            ctx.apply_pipeline(pipeline);
            ctx.apply_bindings(&self.bindings);
            ctx.apply_uniforms(UniformsSource::table(&Uniforms {
                matrix: matrix.to_cols_array(),
                half_size: half,
                weight,
                looks,
            }));
            ctx.draw(0, 6, self.count as i32);
        }
        ctx.end_render_pass();
    }
}

/// An empty per-instance buffer for `capacity` instances, updated every frame.
fn instance_buffer(ctx: &mut dyn RenderingBackend, capacity: usize) -> BufferId {
    ctx.new_buffer(
        BufferType::VertexBuffer,
        BufferUsage::Stream,
        BufferSource::empty::<Instance>(capacity),
    )
}
