/** The runtime's machinery: bodies, request queues, futures, routing. Not for applications. */
package org.troupe.core.internal;
