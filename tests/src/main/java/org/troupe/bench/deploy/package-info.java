/** The deployment benchmark: acquiring and releasing node JVMs through a descriptor, against bare forks. */
package org.troupe.bench.deploy;
