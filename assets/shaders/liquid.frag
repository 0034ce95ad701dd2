// The liquid, lit (after LiquidFun's EyeCandy shaders): the accumulated splat field (`Texture`:
// colour × weight, weight) turns opaque where its weight passes the threshold, with an
// anti-aliased edge. The field read as the liquid's thickness gives a surface normal (its
// gradient) and a depth. Per pixel, the looks field (`Looks`: clarity, gloss, glow, grain, each
// × weight) says how the materials there take the light. What lies behind (the back wall,
// backdrop.glsl) is seen through clear liquid, bent by the normal and tinted by the depth
// (Beer–Lambert); a diffuse light from the upper left, a highlight (Blinn–Phong, power 128, or a
// broad sheen), a Fresnel reflection of a pale sky at the rim; grain where frosted or stony; and
// glowing matter drawn bright, flickering slowly. The formulas are those of app/draw/look.rs.

varying vec2 uv;

uniform sampler2D Texture;
uniform sampler2D Looks;
// 1 under --lite: no looks field, every material `LiteLook` (the clear style).
uniform float Lite;
uniform vec4 LiteLook;
// Field weight at the liquid's surface.
uniform float Threshold;
// Field weight inside a pool at rest.
uniform float Full;
// One step of the normal's differences, in texture coordinates (x, y).
uniform vec2 Texel;
// World position of texture coordinate uv: (x scale, x offset, y scale, y offset).
uniform vec4 WorldFromUv;
// How far, in world units, the normal bends the view of what is behind at full tilt.
uniform float Bend;
// Grain features per world unit.
uniform float Grain;
// Seconds, for the glow's slow flicker.
uniform float Time;

// How steeply the surface leans per unit slope of the field (look.rs: STEEPNESS).
uniform float Steepness;
// Reflectance seen head-on (look.rs: WATER_REFLECTANCE).
uniform float HeadOn;

const vec3 LIGHT = vec3(-0.45, 0.6, 0.66);
const vec3 SKY = vec3(0.78, 0.87, 1.0);

// Smooth value noise in 0..1 over world units (one feature per unit).
float value_noise(vec2 p) {
    vec2 cell = floor(p);
    vec2 f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    float a = tile_hash(cell);
    float b = tile_hash(cell + vec2(1.0, 0.0));
    float c = tile_hash(cell + vec2(0.0, 1.0));
    float d = tile_hash(cell + vec2(1.0, 1.0));
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

void main() {
    vec4 field = texture2D(Texture, uv);
    float weight = field.a;
    if (weight < 0.8 * Threshold) {
        discard;
    }
    float alpha = smoothstep(0.8 * Threshold, 1.2 * Threshold, weight);
    vec3 colour = field.rgb / weight;
    // Under --lite the looks were not splatted: every material is clear.
    vec4 look = Lite > 0.5 ? LiteLook : clamp(texture2D(Looks, uv) / weight, 0.0, 1.0);
    float clarity = look.r;
    float gloss = look.g;
    float glow = look.b;
    float grain = look.a;

    // The surface normal (look.rs: surface_normal); the texture's rows run downward.
    float left = texture2D(Texture, uv - vec2(Texel.x, 0.0)).a;
    float right = texture2D(Texture, uv + vec2(Texel.x, 0.0)).a;
    float above = texture2D(Texture, uv - vec2(0.0, Texel.y)).a;
    float below = texture2D(Texture, uv + vec2(0.0, Texel.y)).a;
    vec2 slope = 0.5 * vec2(right - left, above - below) / max(Full, 0.001);
    // 1 at the surface, 0 in the deep body, whose grain of particles barely tilts it.
    float near = 1.0 - smoothstep(Threshold, 3.0 * Threshold, weight);
    vec3 normal = normalize(vec3(-Steepness * (0.15 + 0.85 * near) * slope, 1.0));
    // The depth from the weight averaged over the normal's reach, full well before the pool's
    // own weight: the body of a pool is evenly deep, not grainy.
    float around = (left + right + above + below + 2.0 * weight) / 6.0;
    float depth = clamp((around - Threshold) / max(0.7 * Full - Threshold, 0.001), 0.0, 1.0);

    vec3 light = normalize(LIGHT);
    float diffuse = max(dot(normal, light), 0.0);
    float facing = max(dot(normal, normalize(light + vec3(0.0, 0.0, 1.0))), 0.0);
    float sheen = smoothstep(0.5, 1.0, gloss);
    float sharp = pow(facing, 128.0);
    float broad = pow(facing, 10.0);
    float highlight = gloss * mix(1.4 * sharp, 0.55 * broad, sheen);
    // Schlick (look.rs: fresnel), reflecting the sky.
    float fresnel = HeadOn + (1.0 - HeadOn) * pow(1.0 - normal.z, 5.0);

    vec2 world = vec2(WorldFromUv.x * uv.x + WorldFromUv.y, WorldFromUv.z * uv.y + WorldFromUv.w);
    // Clear liquid: the light it scatters, in its own colour (more where it is deep), and the
    // wall behind, bent by the normal and seen through a depth that tints it (Beer–Lambert,
    // look.rs: transmittance): thin liquid nearly clear, deep liquid its colour.
    vec3 through = pow(max(colour, vec3(0.02)), vec3(0.3 + 0.9 * depth));
    vec3 behind = backdrop(world - normal.xy * Bend * (0.5 + depth)) * through * 2.4;
    vec3 scattered = colour * (0.22 + 0.2 * diffuse) * (0.5 + 0.5 * depth);
    vec3 body = colour * (0.7 + 0.42 * diffuse) * (1.0 - 0.15 * depth);
    vec3 lit = mix(body, scattered + behind, clarity);

    float noise = value_noise(world * Grain) + 0.5 * value_noise(world * Grain * 2.7);
    lit *= 1.0 - 0.3 * grain * (noise - 0.5);
    lit = mix(lit, SKY, fresnel * (0.35 + 0.65 * gloss) * (1.0 - glow));
    lit += vec3(highlight * (1.0 - glow));
    // A crisp bright edge for the frosted (ice), a soft one for the rest.
    float rim = 1.0 - smoothstep(Threshold, 1.6 * Threshold, weight);
    lit += rim * (0.08 + 0.35 * grain) * (1.0 - glow);
    // Glowing matter is its own light, flickering slowly where it is thick.
    float flicker = 1.0 + 0.12 * sin(2.0 * Time + 6.0 * noise) * depth;
    lit = mix(lit, colour * 1.2 * flicker, glow);
    gl_FragColor = vec4(clamp(lit, 0.0, 1.0), alpha);
}
