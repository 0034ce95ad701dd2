#version 100
// Turns the accumulated splat field into liquid: opaque where the field's weight passes the
// threshold (with an anti-aliased edge), coloured by the weighted mean of the particles' colours,
// shaded by the field's slope (light from the upper left), a bright rim and a darker deep body.
precision mediump float;

varying mediump vec2 uv;

uniform sampler2D Texture;
// Field weight at the liquid's surface.
uniform float Threshold;
// Field weight inside a pool at rest.
uniform float Full;
// Size of one field texel in texture coordinates.
uniform vec2 Texel;

void main() {
    vec4 field = texture2D(Texture, uv);
    float weight = field.a;
    float alpha = smoothstep(0.8 * Threshold, 1.2 * Threshold, weight);
    if (alpha <= 0.0) {
        discard;
    }
    vec3 colour = field.rgb / max(weight, 0.001);

    // Slope of the field, sampled a few texels apart to ignore the grain between particles:
    // the surface leans toward where the weight falls off. Only the band near the surface is
    // tilted, so the deep body stays calm.
    vec2 step = 2.0 * Texel;
    float left = texture2D(Texture, uv - vec2(step.x, 0.0)).a;
    float right = texture2D(Texture, uv + vec2(step.x, 0.0)).a;
    float up = texture2D(Texture, uv - vec2(0.0, step.y)).a;
    float down = texture2D(Texture, uv + vec2(0.0, step.y)).a;
    float near = 1.0 - smoothstep(Threshold, 3.0 * Threshold, weight);
    vec2 slope = vec2(right - left, down - up) / max(Full, 0.001);
    vec3 normal = normalize(vec3(-slope * 5.0 * near, 1.0));
    vec3 light = normalize(vec3(-0.45, -0.6, 0.66));
    float diffuse = dot(normal, light);
    float specular = near * pow(max(dot(reflect(-light, normal), vec3(0.0, 0.0, 1.0)), 0.0), 16.0);

    // Thin liquid (near the threshold) is lighter, the deep body a little darker.
    float depth = clamp((weight - Threshold) / max(Full - Threshold, 0.001), 0.0, 1.0);
    float rim = 1.0 - smoothstep(Threshold, 1.6 * Threshold, weight);
    colour *= 0.8 + 0.3 * diffuse + 0.12 * (1.0 - depth);
    colour += vec3(0.2) * rim + vec3(0.35) * specular;
    gl_FragColor = vec4(clamp(colour, 0.0, 1.0), alpha);
}
