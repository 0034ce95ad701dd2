#version 100
// Passes a texture's coordinates through: the passes that draw one quad over a screen or a
// target (the liquid, the bloom's source, blur and sum).
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;

varying vec2 uv;

uniform mat4 Model;
uniform mat4 Projection;

void main() {
    gl_Position = Projection * Model * vec4(position, 1.0);
    uv = texcoord;
}
