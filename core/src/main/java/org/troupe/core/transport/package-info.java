/** The portability interface between the runtime and the networks it runs on: links carrying framed messages. */
package org.troupe.core.transport;
