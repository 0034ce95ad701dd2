// The box's back wall, shared by the box pass (box.frag) and the liquid pass (liquid.frag, which
// looks at it through the liquid): quiet square tiles of `Tile` world units, each a shade apart,
// with soft grout, lighter toward the top of the box. Beyond the box's bounds (`Box`: min x, min
// y, max x, max y), the wall's own grey. `Pixel`: world units per window pixel, so that the
// grout stays about a pixel and a half wide at any zoom.
uniform vec4 Box;
uniform float Tile;
uniform float Pixel;

float tile_hash(vec2 cell) {
    return fract(sin(dot(cell, vec2(12.9898, 78.233))) * 43758.5453);
}

vec3 backdrop(vec2 world) {
    if (world.x < Box.x || world.y < Box.y || world.x > Box.z || world.y > Box.w) {
        return vec3(0.55, 0.58, 0.64);
    }
    vec2 t = world / Tile;
    vec2 cell = floor(t);
    vec2 f = fract(t);
    vec2 edge = min(f, 1.0 - f);
    float width = 1.5 * Pixel / Tile;
    float grout = 1.0 - smoothstep(0.3 * width, width, min(edge.x, edge.y));
    float height = clamp((world.y - Box.y) / max(Box.w - Box.y, 0.001), 0.0, 1.0);
    vec3 base = vec3(0.15, 0.16, 0.19) * (0.8 + 0.3 * height);
    vec3 colour = base * (0.93 + 0.12 * tile_hash(cell));
    // A faint bevel: each tile a touch lighter along its upper left.
    colour *= 1.0 + 0.05 * (smoothstep(0.25, 0.0, f.x) + smoothstep(0.75, 1.0, f.y));
    return mix(colour, base * 0.72, grout);
}
