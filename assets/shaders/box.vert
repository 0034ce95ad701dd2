#version 100
// The box's fill: world positions (the camera's) passed through for the back wall's pattern.
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;

varying highp vec2 world;

uniform mat4 Model;
uniform mat4 Projection;

void main() {
    gl_Position = Projection * Model * vec4(position, 1.0);
    world = position.xy;
}
