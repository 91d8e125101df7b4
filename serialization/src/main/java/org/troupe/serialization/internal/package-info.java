/**
 * Internals of Troupe serialization; not an API, may change without notice.
 *
 * <p>A session direction ({@link org.troupe.serialization.internal.SessionKryo}) is one Kryo instance configured
 * with a per-connection class table ({@link org.troupe.serialization.internal.SessionClassResolver}) that checks the
 * {@link org.troupe.serialization.internal.AllowList}, bounded serializers for collections and arrays, and
 * serializers generated per class by {@link org.troupe.serialization.internal.SerializerGenerator}.
 */
package org.troupe.serialization.internal;
