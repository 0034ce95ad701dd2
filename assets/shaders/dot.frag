#version 100
// A particle as a plain round dot (the debugging particle view).
precision mediump float;

varying mediump vec2 offset;
varying lowp vec4 colour;

void main() {
    float r2 = dot(offset, offset);
    if (r2 > 1.0) {
        discard;
    }
    gl_FragColor = vec4(colour.rgb * (1.1 - 0.3 * r2), 1.0);
}
