"""Every sentence a user reads, as functions with named arguments, by area."""
