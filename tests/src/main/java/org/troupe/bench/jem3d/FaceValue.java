package org.troupe.bench.jem3d;

/** One border face's three values, as a message of per-face objects (the 2004 Jem3D's way) carries them. */
public record FaceValue(double x, double y, double z) {}
