/**
 * The exceptions of the Troupe core: what a call, a wait or a runtime throws ({@link TroupeException} and its
 * subclasses) and the {@link TouchedAt} a failure carries where its future was touched. A leaf package: it depends
 * on no other package of the core, so every layer may throw and catch these.
 */
package org.troupe.core.exceptions;
