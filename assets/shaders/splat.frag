#version 100
// A particle's soft Gaussian splat, added into a field target: its four channels times the
// weight (the colours pass: colour × weight and, its alpha being 1, the weight itself in A; the
// looks pass: the look's four numbers × weight). Weight is scaled on the CPU so that a packed pool stays below 1 (8-bit target).
precision mediump float;

varying mediump vec2 offset;
varying lowp vec4 colour;

uniform float Weight;

void main() {
    float r2 = dot(offset, offset);
    // Gaussian with sigma a third of the quad's half-size, reaching exactly zero at the rim.
    float w = Weight * max(exp(-4.5 * r2) - 0.0111, 0.0) / 0.9889;
    gl_FragColor = colour * w;
}
