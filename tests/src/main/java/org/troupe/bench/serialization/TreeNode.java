package org.troupe.bench.serialization;

import java.io.Serializable;

/** A node of a complete binary tree (e.g. a spatial partition): four ints and two children. */
public class TreeNode implements Serializable {
    int id;
    int level;
    int weight;
    int flags;
    TreeNode left;
    TreeNode right;
}
