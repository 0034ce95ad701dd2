#version 100
// The fragment shaders' common start: the finest float precision the platform has.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
