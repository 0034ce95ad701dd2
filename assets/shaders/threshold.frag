#version 100
// Turns the accumulated splat field into liquid: opaque where the field's weight passes the
// threshold (with an anti-aliased edge), coloured by the weighted mean of the particles' colours
// (materials blend where they meet). Near the surface the field's slope tilts a normal lit from
// the upper left, with a bright rim; the deep body is a little darker.
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
    if (weight < 0.8 * Threshold) {
        discard;
    }
    float alpha = smoothstep(0.8 * Threshold, 1.2 * Threshold, weight);
    vec3 colour = field.rgb / weight;
    // 1 at the surface, 0 in the deep body.
    float near = 1.0 - smoothstep(Threshold, 3.0 * Threshold, weight);
    float depth = clamp((weight - Threshold) / max(Full - Threshold, 0.001), 0.0, 1.0);
    float shade = 0.98 + 0.1 * (1.0 - depth);
    if (near > 0.0) {
        // Slope over two texels (ignores the grain between particles): the surface leans
        // toward where the weight falls off.
        float right = texture2D(Texture, uv + vec2(2.0 * Texel.x, 0.0)).a;
        float down = texture2D(Texture, uv + vec2(0.0, 2.0 * Texel.y)).a;
        vec2 slope = vec2(right - weight, down - weight) / max(Full, 0.001);
        vec3 normal = normalize(vec3(-slope * 10.0 * near, 1.0));
        vec3 light = vec3(-0.46, -0.61, 0.64);
        float diffuse = dot(normal, light);
        // Highlight where the normal faces halfway between the light and the viewer.
        float facing = max(dot(normal, vec3(-0.27, -0.36, 0.89)), 0.0);
        float highlight = facing * facing;
        highlight *= highlight;
        highlight *= highlight;
        shade = mix(shade, 0.8 + 0.3 * diffuse, near);
        colour += vec3(0.5) * near * highlight;
    }
    float rim = 1.0 - smoothstep(Threshold, 1.6 * Threshold, weight);
    colour = colour * shade + vec3(0.2) * rim;
    gl_FragColor = vec4(clamp(colour, 0.0, 1.0), alpha);
}
