#version 100
// One corner of a particle's quad. texcoord runs from -1 to 1 across the quad.
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;

varying mediump vec2 offset;
varying lowp vec4 colour;

uniform mat4 Model;
uniform mat4 Projection;

void main() {
    gl_Position = Projection * Model * vec4(position, 1.0);
    colour = color0 / 255.0;
    offset = texcoord;
}
