// The bloom's source: the light glowing liquid gives off (its colour times its glow, from the
// looks field), where there is liquid.

varying vec2 uv;

uniform sampler2D Texture;
uniform sampler2D Looks;
uniform float Threshold;

void main() {
    vec4 field = texture2D(Texture, uv);
    float weight = max(field.a, 0.0001);
    float alpha = smoothstep(0.8 * Threshold, 1.2 * Threshold, field.a);
    float glow = clamp(texture2D(Looks, uv).b / weight, 0.0, 1.0);
    gl_FragColor = vec4(clamp(field.rgb / weight, 0.0, 1.0) * glow * alpha, 1.0);
}
