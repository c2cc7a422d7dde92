"""LineUp (MindWare): rules core, board, suspect and Lucky Break content, views, resampling."""
