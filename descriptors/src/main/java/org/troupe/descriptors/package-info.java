/**
 * The descriptor schema and ready-made descriptors, as resources. Its issue has not landed yet.
 */
package org.troupe.descriptors;
