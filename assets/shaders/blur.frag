// One pass of the bloom's separable Gaussian blur along `Step` (one texel, in texture
// coordinates): the centre and 6 taps each side, weights from look.rs (bloom_weights, summing
// to 1 over the kernel).

varying vec2 uv;

uniform sampler2D Texture;
uniform vec2 Step;
uniform float Weights[7];

void main() {
    vec3 sum = Weights[0] * texture2D(Texture, uv).rgb;
    for (int k = 1; k < 7; k++) {
        vec2 offset = Step * float(k);
        sum += Weights[k] * (texture2D(Texture, uv + offset).rgb + texture2D(Texture, uv - offset).rgb);
    }
    gl_FragColor = vec4(sum, 1.0);
}
