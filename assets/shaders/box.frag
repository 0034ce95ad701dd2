// The box's back wall (backdrop.glsl), drawn where the box is.
varying vec2 world;

void main() {
    gl_FragColor = vec4(backdrop(world), 1.0);
}
