// The blurred glow, added over the picture (the pipeline blends One, One) at `Strength`.

varying vec2 uv;

uniform sampler2D Texture;
uniform float Strength;

void main() {
    gl_FragColor = vec4(Strength * texture2D(Texture, uv).rgb, 1.0);
}
