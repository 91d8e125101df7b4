/** Troupe serialization. */
package org.troupe.serialization;
